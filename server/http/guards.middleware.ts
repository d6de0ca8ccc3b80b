import type { RequestHandler } from 'express';
import { ForbiddenError } from '../core/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request sent by a page of another site: the browser names that
 * page in Origin. Requests without Origin (curl, the kiosk's own fetches on some paths) pass;
 * the SameSite=Strict cookie already keeps them from riding on a session.
 */
export const sameOriginGuard: RequestHandler = (req, _res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const origin = req.headers.origin;
  if (origin === undefined) return next();
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (!host || host !== req.headers.host) {
    return next(new ForbiddenError('Cross-site requests are refused', 'cross_origin'));
  }
  next();
};
