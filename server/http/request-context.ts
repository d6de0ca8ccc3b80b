import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'bd_session';

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
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
