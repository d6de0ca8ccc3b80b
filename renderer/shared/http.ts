/** The API's error body, as the server's error middleware writes it. */
interface ErrorBody {
  error?: { code?: string; message?: string; details?: unknown };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
    /** The server's machine-readable details (field issues); never shown as they are. */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type UnauthorizedHandler = () => void;
const unauthorizedHandlers = new Set<UnauthorizedHandler>();

/** Lets the session store lock the console whenever the server says the session is gone. */
export function onUnauthorized(handler: UnauthorizedHandler): () => void {
  unauthorizedHandlers.add(handler);
  return () => unauthorizedHandlers.delete(handler);
}

type OwnerKeyHandler = () => Promise<boolean>;
let ownerKeyHandler: OwnerKeyHandler | undefined;

/**
 * Lets the console ask for the owner's PIN in place when a change needs the owner's key: the
 * handler resolves true once the session holds it, and the refused request is sent once more
 * (the guard refused it before anything ran). Only changes are retried; a page that reads an
 * owner-only route asks before it opens (the router's guard).
 */
export function onOwnerKeyRequired(handler: OwnerKeyHandler): () => void {
  ownerKeyHandler = handler;
  return () => {
    if (ownerKeyHandler === handler) ownerKeyHandler = undefined;
  };
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** A 401 here is expected (signing in); it must not lock the console again. */
  expectUnauthorized?: boolean;
  /** A 403 `owner_key_required` is answered as it is, without asking for the owner's PIN. */
  noOwnerPrompt?: boolean;
}

/** The single door to the HTTP API: services call this, components never call fetch. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'network');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
  }
  if (!res.ok) {
    const error = (body as ErrorBody | undefined)?.error;
    if (res.status === 401 && !options.expectUnauthorized) unauthorizedHandlers.forEach((h) => h());
    if (res.status === 403 && error?.code === 'owner_key_required' && method !== 'GET' && !options.noOwnerPrompt && ownerKeyHandler) {
      if (await ownerKeyHandler()) return apiRequest<T>(method, path, { ...options, noOwnerPrompt: true });
    }
    const retry = res.headers.get('Retry-After');
    const detailWait = (error?.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
    const wait = retry ? Number(retry) : typeof detailWait === 'number' ? detailWait : undefined;
    throw new ApiError(res.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${res.status}`, wait, error?.details);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
