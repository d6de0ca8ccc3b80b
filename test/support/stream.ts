import { SseParser, type SseMessage } from '../../server/capture/sse-parser.js';

/**
 * Opens a server-sent-event stream and resolves with the first message that matches.
 * `opened` resolves once the stream answered: what happens after it is seen.
 */
export function nextStreamMessage(
  url: string,
  match: (m: SseMessage) => boolean,
): { opened: Promise<void>; message: Promise<SseMessage>; close: () => void } {
  const controller = new AbortController();
  let ready!: () => void;
  const opened = new Promise<void>((resolve) => (ready = resolve));
  const message = (async () => {
    const res = await fetch(url, { signal: controller.signal });
    ready();
    let found: SseMessage | undefined;
    const parser = new SseParser((m) => {
      if (!found && match(m)) found = m;
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    while (!found) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    controller.abort();
    if (!found) throw new Error('stream ended');
    return found;
  })();
  return { opened, message, close: () => controller.abort() };
}
