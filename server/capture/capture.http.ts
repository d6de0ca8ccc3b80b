import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { CaptureAppError, CaptureTimeoutError, CaptureUnavailableError } from '../core/errors.js';
import type { CaptureFile } from './capture.port.js';
import { mediaContentType } from './capture-media.js';

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Deadline of the whole exchange. With `headersOnly`, it covers only the wait for the answer's
   * headers: the body then runs under an idle timeout (toFileStream), never a total deadline.
   */
  timeoutMs: number;
  headersOnly?: boolean;
}

/** The largest JSON answer read: a full configuration or a 500-item page is far below it. */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

function reasonOf(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'no answer in time';
    const cause = (err as Error & { cause?: { code?: string } }).cause;
    return typeof cause?.code === 'string' && /^[A-Z_]{2,32}$/.test(cause.code) ? cause.code : 'connection failed';
  }
  return 'connection failed';
}

/**
 * fetch with a deadline; a capture app that is down or silent becomes a 503, never a hang.
 * Redirects are never followed: an answer that moves elsewhere is an error.
 */
export async function captureFetch(url: string, options: RequestOptions): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  timer.unref();
  let res: Response;
  try {
    res = await fetch(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
      signal: controller.signal,
      redirect: 'manual',
    });
  } catch (err) {
    clearTimeout(timer);
    const message = `The capture app at ${new URL(url).origin} is not reachable (${reasonOf(err)})`;
    throw controller.signal.aborted ? new CaptureTimeoutError(message) : new CaptureUnavailableError(message);
  }
  if (options.headersOnly) clearTimeout(timer);
  if (res.status >= 300 && res.status < 400) {
    clearTimeout(timer);
    await res.body?.cancel().catch(() => undefined);
    throw new CaptureAppError(`The capture app answered a redirect (HTTP ${res.status}), which Boothdeck does not follow`);
  }
  return res;
}

/** Reads at most `max` bytes of a body as text; more is an error and the rest is dropped. */
export async function readCapped(res: Response, max: number, what: string): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new CaptureAppError(`The capture app sent ${what} larger than Boothdeck accepts`);
  }
  if (!res.body) return '';
  const reader = (res.body as WebReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        throw new CaptureAppError(`The capture app sent ${what} larger than Boothdeck accepts`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof CaptureAppError) throw err;
    throw new CaptureUnavailableError(`The capture app stopped answering while sending ${what} (${reasonOf(err)})`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJson(res: Response, what: string, max = MAX_JSON_BYTES): Promise<unknown> {
  const text = await readCapped(res, max, what);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CaptureAppError(`The capture app sent ${what} that is not JSON (HTTP ${res.status})`);
  }
}

/**
 * An answer Boothdeck cannot use, as a status and a short sentence of its own: the capture
 * app's body never reaches the console.
 */
export async function unexpected(res: Response, what: string): Promise<CaptureAppError> {
  await res.body?.cancel().catch(() => undefined);
  return new CaptureAppError(`The capture app answered HTTP ${res.status} to ${what}`, { status: res.status });
}

/**
 * Turns a fetch body into a Node stream that errors out if the capture app stalls, so a
 * download or an export never waits forever on a silent peer, however long a steady one takes.
 */
export function toFileStream(res: Response, idleMs: number, contentType: string): CaptureFile {
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
    contentType,
    contentLength: length !== null && /^\d{1,15}$/.test(length) ? Number(length) : undefined,
  };
}

/** The type Boothdeck serves a media file as, or an error when it is not an image or a video. */
export async function mediaTypeOf(res: Response): Promise<string> {
  const type = mediaContentType(res.headers.get('content-type'));
  if (type) return type;
  await res.body?.cancel().catch(() => undefined);
  throw new CaptureAppError('The capture app sent a file that is not an image or a video');
}
