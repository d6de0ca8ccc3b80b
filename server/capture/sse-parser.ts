export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

export interface SseLimits {
  /** Longest line accepted, in characters; a capture app never sends lines near this. */
  maxLineChars: number;
  /** Largest message (its data lines together), in characters. */
  maxEventChars: number;
}

/** A media item or a state change is a few hundred bytes; these leave a wide margin. */
export const DEFAULT_SSE_LIMITS: SseLimits = { maxLineChars: 64 * 1024, maxEventChars: 256 * 1024 };

/** The stream broke a size limit: the caller drops the connection. */
export class SseOverflowError extends Error {
  constructor(what: 'line' | 'event', limit: number) {
    super(`A server-sent ${what} exceeded ${limit} characters`);
    this.name = 'SseOverflowError';
  }
}

/**
 * Incremental parser of the text/event-stream format: feed it chunks as they come, it calls
 * back once per complete message. Comment lines (": ping") are dropped. Each chunk is scanned
 * once (never the whole buffer again), and a line or a message over its limit throws
 * SseOverflowError, so a peer that never sends a line break cannot grow memory or CPU use.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private dataChars = 0;
  private id: string | undefined;

  constructor(
    private readonly onMessage: (message: SseMessage) => void,
    private readonly limits: SseLimits = DEFAULT_SSE_LIMITS,
  ) {}

  push(chunk: string): void {
    let text = this.buffer + chunk;
    let start = 0;
    // Scanning resumes where the previous chunk ended: the buffer never holds a line break.
    const from = this.buffer.endsWith('\r') ? this.buffer.length - 1 : this.buffer.length;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (c === 13 && i === text.length - 1) break;
      this.line(text.slice(start, i));
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    text = text.slice(start);
    const pendingCr = text.endsWith('\r') ? 1 : 0;
    if (text.length - pendingCr > this.limits.maxLineChars) {
      this.buffer = '';
      throw new SseOverflowError('line', this.limits.maxLineChars);
    }
    this.buffer = text;
  }

  private line(line: string): void {
    if (line.length > this.limits.maxLineChars) throw new SseOverflowError('line', this.limits.maxLineChars);
    if (line === '') {
      if (this.data.length > 0) {
        const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n') };
        if (this.id !== undefined) message.id = this.id;
        this.onMessage(message);
      }
      this.event = '';
      this.data = [];
      this.dataChars = 0;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      this.dataChars += value.length + 1;
      if (this.dataChars > this.limits.maxEventChars) {
        this.data = [];
        this.dataChars = 0;
        throw new SseOverflowError('event', this.limits.maxEventChars);
      }
      this.data.push(value);
    } else if (field === 'id') this.id = value;
  }
}
