import { parse } from 'cookie';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'bd_session';

/** One cookie of the request; a malformed value (bad escape) reads as absent. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  try {
    return parse(header)[name];
  } catch {
    return undefined;
  }
}

export const sessionToken = (req: Request): string | undefined => readCookie(req, SESSION_COOKIE);

export function setSessionCookie(res: Response, token: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/', maxAge: maxAgeMs });
}

export function clearSessionCookie(res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/' });
}

/** Taken from the socket, never from a header a guest could forge. */
export function isLoopbackClient(req: Request): boolean {
  const address = req.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

export const clientInfo = (req: Request): { address: string; isLocal: boolean } => ({
  address: req.socket.remoteAddress ?? 'unknown',
  isLocal: isLoopbackClient(req),
});
