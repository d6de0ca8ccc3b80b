import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { keepBounded } from '../core/util/bounded-map.js';
import { clientKey } from '../core/util/client-key.js';
import { readCookie } from '../http/request-context.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

export const GUEST_COOKIE = 'bd_guest';
const SECRET_KEY = 'guest.session_secret';
/** Long enough for an event of several days; the quota is per session, not per day. */
export const GUEST_COOKIE_MAX_AGE_MS = 14 * 24 * 3600 * 1000;
const ID = /^[A-Za-z0-9_-]{22}$/;
/** A photo's thumbnail, preview, media or download, under the gallery's router. */
const PHOTO_FILE = /^\/photos\/[^/]+\/(?:thumb|preview|media|download)$/;
/** Sessions one address may be handed per window: a family sharing a phone, reloads, a private tab or two. */
const ISSUE_LIMIT = 20;
const ISSUE_WINDOW_MS = 3600 * 1000;
/** Addresses remembered for that count; beyond, the oldest are forgotten first. */
const ISSUE_TRACKED = 4096;
/** Cookies already proved, kept so that a phone's every request does not compute an HMAC again. */
const VERIFIED_KEPT = 4096;

/** The client address as the quota counts it (see clientKey). */
export const clientAddressOf = (req: Request): string => clientKey(req.socket.remoteAddress ?? 'unknown');

/**
 * Signs and checks guest session cookies (`<id>.<hmac>`). The key is made once and kept in
 * SQLite, so sessions survive a restart and a guest cannot mint a fresh quota by editing the id.
 */
export class GuestSessions {
  private key: Buffer | undefined;
  /** Sessions handed to each address in the current window (insertion order = oldest first). */
  private readonly issued = new Map<string, { since: number; count: number }>();
  /** Cookie values proved by their HMAC, and the id each proves (insertion order = oldest first). */
  private readonly verified = new Map<string, string>();

  constructor(
    private readonly settings: SettingsRepository,
    /** Monotonic milliseconds: a wall clock set at boot must not reset the count. */
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

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
    // Only a value that was proved is kept: a forged one is checked, and refused, every time.
    const known = this.verified.get(value);
    if (known !== undefined) return known;
    const [id, mac, extra] = value.split('.');
    if (!id || !mac || extra !== undefined || !ID.test(id)) return undefined;
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    keepBounded(this.verified, value, id, VERIFIED_KEPT);
    return id;
  }

  issue(): { id: string; cookie: string } {
    const id = randomBytes(16).toString('base64url');
    return { id, cookie: `${id}.${this.sign(id)}` };
  }

  /**
   * Reads the guest's session, issuing one (HttpOnly, SameSite=Lax) on a visit. A photo's files
   * need none: the dozens of thumbnails a first visit asks for before any answer has set the
   * cookie would each be handed a session of their own. A request that changes something (a
   * print) is never handed one: it must come from a browser that visited the gallery. An
   * address is handed a bounded number per hour; beyond, it browses without one.
   */
  middleware(): RequestHandler {
    return (req, res, next) => {
      if (PHOTO_FILE.test(req.path)) return next();
      const known = this.verify(readCookie(req, GUEST_COOKIE));
      const visit = req.method === 'GET' || req.method === 'HEAD';
      const address = clientAddressOf(req);
      res.locals.guestSession = known ?? (visit && this.mayIssue(address) ? this.start(res) : undefined);
      res.locals.clientAddress = address;
      next();
    };
  }

  private mayIssue(address: string): boolean {
    const now = this.monotonic();
    let entry = this.issued.get(address);
    if (!entry || now - entry.since >= ISSUE_WINDOW_MS) {
      this.issued.delete(address);
      if (this.issued.size >= ISSUE_TRACKED) {
        const oldest = this.issued.keys().next().value;
        if (oldest !== undefined) this.issued.delete(oldest);
      }
      entry = { since: now, count: 0 };
      this.issued.set(address, entry);
    }
    if (entry.count >= ISSUE_LIMIT) return false;
    entry.count++;
    return true;
  }

  private start(res: Response): string {
    const { id, cookie } = this.issue();
    res.cookie(GUEST_COOKIE, cookie, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: GUEST_COOKIE_MAX_AGE_MS });
    return id;
  }
}

/** The session the middleware attached; undefined for a browser that has none. */
export function guestSessionOf(res: Response): string | undefined {
  const id: unknown = res.locals.guestSession;
  return typeof id === 'string' ? id : undefined;
}

/** The client address the middleware read. */
export function clientAddressFrom(res: Response): string {
  const address: unknown = res.locals.clientAddress;
  if (typeof address !== 'string') throw new Error('guest session middleware missing');
  return address;
}
