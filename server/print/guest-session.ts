import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { readCookie } from '../http/request-context.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

export const GUEST_COOKIE = 'bd_guest';
const SECRET_KEY = 'guest.session_secret';
/** Long enough for an event of several days; the quota is per session, not per day. */
const MAX_AGE_MS = 14 * 24 * 3600 * 1000;
const ID = /^[A-Za-z0-9_-]{22}$/;
/** A photo's thumbnail, preview, media or download, under the gallery's router. */
const PHOTO_FILE = /^\/photos\/[^/]+\/(?:thumb|preview|media|download)$/;

/**
 * Signs and checks guest session cookies (`<id>.<hmac>`). The key is made once and kept in
 * SQLite, so sessions survive a restart and a guest cannot mint a fresh quota by editing the id.
 */
export class GuestSessions {
  private key: Buffer | undefined;

  constructor(private readonly settings: SettingsRepository) {}

  private secret(): Buffer {
    if (!this.key) {
      let stored = this.settings.get(SECRET_KEY);
      if (typeof stored !== 'string' || stored.length < 32) {
        stored = randomBytes(32).toString('base64url');
        try {
          this.settings.set(SECRET_KEY, stored);
        } catch {
          // A full disk must not close the gallery: the key then lives in memory until a restart.
        }
      }
      this.key = Buffer.from(stored as string, 'utf8');
    }
    return this.key;
  }

  private sign(id: string): string {
    return createHmac('sha256', this.secret()).update(id).digest('base64url');
  }

  /** The session id a cookie value proves, or undefined. */
  verify(value: string | undefined): string | undefined {
    if (!value) return undefined;
    const [id, mac, extra] = value.split('.');
    if (!id || !mac || extra !== undefined || !ID.test(id)) return undefined;
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }

  issue(): { id: string; cookie: string } {
    const id = randomBytes(16).toString('base64url');
    return { id, cookie: `${id}.${this.sign(id)}` };
  }

  /**
   * Reads the guest's session, issuing one (HttpOnly, SameSite=Lax) on the first visit. A photo's
   * files need none: the dozens of thumbnails a first visit asks for before any answer has set
   * the cookie would each be handed a session of their own.
   */
  middleware(): RequestHandler {
    return (req, res, next) => {
      if (PHOTO_FILE.test(req.path)) return next();
      res.locals.guestSession = this.verify(readCookie(req, GUEST_COOKIE)) ?? this.start(res);
      next();
    };
  }

  private start(res: Response): string {
    const { id, cookie } = this.issue();
    res.cookie(GUEST_COOKIE, cookie, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: MAX_AGE_MS });
    return id;
  }
}

/** The session the middleware attached. */
export function guestSessionOf(res: Response): string {
  const id: unknown = res.locals.guestSession;
  if (typeof id !== 'string') throw new Error('guest session middleware missing');
  return id;
}
