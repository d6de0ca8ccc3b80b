import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CaptureAppError, CaptureUnavailableError } from '../core/errors.js';
import type { CaptureFile } from './capture.port.js';

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

function reasonOf(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'no answer in time';
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? err.message;
  }
  return String(err);
}

/** fetch with a deadline; a capture app that is down or silent becomes a 503, never a hang. */
export async function captureFetch(url: string, options: RequestOptions): Promise<Response> {
  try {
    return await fetch(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'manual',
    });
  } catch (err) {
    throw new CaptureUnavailableError(`The capture app at ${new URL(url).origin} is not reachable (${reasonOf(err)})`);
  }
}

export async function readJson(res: Response, what: string): Promise<unknown> {
  const text = await res.text().catch((err: unknown) => {
    throw new CaptureUnavailableError(`The capture app stopped answering while sending ${what} (${reasonOf(err)})`);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CaptureAppError(`The capture app sent ${what} that is not JSON (HTTP ${res.status})`);
  }
}

export async function unexpected(res: Response, what: string): Promise<CaptureAppError> {
  const text = await res.text().catch(() => '');
  let detail: unknown = text.slice(0, 500);
  try {
    detail = (JSON.parse(text) as { detail?: unknown }).detail ?? detail;
  } catch {
    /* plain text body: keep it as is */
  }
  return new CaptureAppError(`The capture app answered HTTP ${res.status} to ${what}`, { status: res.status, detail });
}

/**
 * Turns a fetch body into a Node stream that errors out if the capture app stalls, so a
 * download or an export never waits forever on a silent peer.
 */
export function toFileStream(res: Response, idleMs: number): CaptureFile {
  const body = res.body as WebReadableStream<Uint8Array> | null;
  const stream = body ? Readable.fromWeb(body) : Readable.from([]);
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => stream.destroy(new CaptureUnavailableError('The capture app stalled while sending a file')), idleMs);
    timer.unref();
  };
  stream.on('data', arm);
  stream.once('close', () => clearTimeout(timer));
  stream.once('end', () => clearTimeout(timer));
  arm();
  const length = res.headers.get('content-length');
  return {
    stream,
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    contentLength: length !== null && /^\d+$/.test(length) ? Number(length) : undefined,
  };
}
