import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Clock, TimerHandle } from '../core/clock/clock.port.js';
import type { CaptureConnectionState, CaptureSubscription } from './capture.port.js';
import type { CaptureEvent } from './capture.types.js';
import { DEFAULT_SSE_LIMITS, SseParser, type SseLimits } from './sse-parser.js';

export interface SseStreamOptions {
  url: string;
  clock: Clock;
  /** The capture app pings every second; this long without a whole event means the link is dead. */
  silenceMs: number;
  connectTimeoutMs: number;
  minBackoffMs: number;
  maxBackoffMs: number;
  limits?: SseLimits;
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

/**
 * A server-sent-event stream that reconnects with backoff until it is closed. A line or an
 * event over the size limits, a redirect, or a stream that sends bytes but no whole event
 * within the silence window drops the connection; the backoff is reset only once a whole
 * event arrived, so a misbehaving peer is retried ever more slowly.
 */
export function openSseStream(options: SseStreamOptions): CaptureSubscription {
  let closed = false;
  let controller: AbortController | undefined;
  let retryTimer: TimerHandle | undefined;
  let silenceTimer: TimerHandle | undefined;
  let backoff = options.minBackoffMs;

  const armSilence = (ctrl: AbortController): void => {
    if (silenceTimer) options.clock.clearTimeout(silenceTimer);
    silenceTimer = options.clock.setTimeout(() => ctrl.abort(), options.silenceMs);
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
      const res = await fetch(options.url, {
        headers: { Accept: 'text/event-stream' },
        signal: ctrl.signal,
        redirect: 'manual',
      });
      options.clock.clearTimeout(connectTimer);
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`HTTP ${res.status}`);
      }
      options.onState('connected');
      armSilence(ctrl);
      const parser = new SseParser((m) => {
        armSilence(ctrl);
        backoff = options.minBackoffMs;
        const event: CaptureEvent = { event: m.event, data: parseData(m.data) };
        if (m.id !== undefined) event.id = m.id;
        options.onEvent(event);
      }, options.limits ?? DEFAULT_SSE_LIMITS);
      const decoder = new TextDecoder();
      const reader = (res.body as WebReadableStream<Uint8Array>).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          // Throws on an oversized line or event: the connection is dropped below.
          parser.push(decoder.decode(value, { stream: true }));
        }
      } finally {
        ctrl.abort();
      }
    } catch {
      /* refused, redirected, timed out, oversized or cut: all handled the same way below */
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
