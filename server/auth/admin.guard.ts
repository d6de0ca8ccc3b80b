import type { RequestHandler } from 'express';
import { UnauthorizedError } from '../core/errors.js';
import { sessionToken } from '../http/request-context.js';
import type { AuthService } from './auth.service.js';

/** Lets a request through only with a live admin session. */
export function requireAdmin(auth: AuthService): RequestHandler {
  return (req, _res, next) => {
    if (auth.authenticate(sessionToken(req))) return next();
    next(new UnauthorizedError());
  };
}
