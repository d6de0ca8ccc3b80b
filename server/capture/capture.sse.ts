import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { CaptureConnectionState, CaptureSubscription } from './capture.port.js';
import type { CaptureEvent } from './capture.types.js';
import { SseParser } from './sse-parser.js';

export interface SseStreamOptions {
  url: string;
  clock: Clock;
  /** The capture app pings every second; this much silence means the link is dead. */
  silenceMs: number;
  connectTimeoutMs: number;
  minBackoffMs: number;
  maxBackoffMs: number;
  onEvent: (event: CaptureEvent) => void;
  onState: (state: CaptureConnectionState) => void;
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

/** A server-sent-event stream that reconnects with backoff until it is closed. */
export function openSseStream(options: SseStreamOptions): CaptureSubscription {
  let closed = false;
  let controller: AbortController | undefined;
  let retryTimer: TimerHandle | undefined;
  let silenceTimer: TimerHandle | undefined;
  let backoff = options.minBackoffMs;

  const armSilence = (): void => {
    if (silenceTimer) options.clock.clearTimeout(silenceTimer);
    silenceTimer = options.clock.setTimeout(() => controller?.abort(), options.silenceMs);
  };

  const scheduleReconnect = (): void => {
    if (closed) return;
    options.onState('disconnected');
    retryTimer = options.clock.setTimeout(() => void connect(), backoff);
    backoff = Math.min(backoff * 2, options.maxBackoffMs);
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    options.onState('connecting');
    controller = new AbortController();
    const ctrl = controller;
    const connectTimer = options.clock.setTimeout(() => ctrl.abort(), options.connectTimeoutMs);
    try {
      const res = await fetch(options.url, { headers: { Accept: 'text/event-stream' }, signal: ctrl.signal });
      options.clock.clearTimeout(connectTimer);
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      options.onState('connected');
      backoff = options.minBackoffMs;
      armSilence();
      const parser = new SseParser((m) => {
        const event: CaptureEvent = { event: m.event, data: parseData(m.data) };
        if (m.id !== undefined) event.id = m.id;
        options.onEvent(event);
      });
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        armSilence();
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      /* refused, timed out, or cut: all handled the same way below */
    } finally {
      options.clock.clearTimeout(connectTimer);
      if (silenceTimer) options.clock.clearTimeout(silenceTimer);
    }
    scheduleReconnect();
  };

  void connect();

  return {
    close() {
      closed = true;
      if (retryTimer) options.clock.clearTimeout(retryTimer);
      if (silenceTimer) options.clock.clearTimeout(silenceTimer);
      controller?.abort();
    },
  };
}
