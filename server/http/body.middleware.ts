import type { RequestHandler } from 'express';
import { UnsupportedMediaTypeError, ValidationError } from '../core/errors.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Deeper than any body of this API; far below what would exhaust a recursive walk's stack. */
export const MAX_BODY_DEPTH = 16;

const carriesBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/**
 * Every body of this API is JSON. A body of another type (a form, text/plain: what a page of
 * another site can send without asking) is refused before any route sees it, instead of
 * reaching the route as "no body".
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (!BODY_METHODS.has(req.method)) return next();
  const declared = req.headers['content-type'];
  if (declared === undefined) return next(carriesBody(req.headers) ? new UnsupportedMediaTypeError() : undefined);
  const type = (declared.split(';')[0] ?? '').trim().toLowerCase();
  next(type === 'application/json' ? undefined : new UnsupportedMediaTypeError());
};

/** Depth of a parsed JSON value, walked without recursion (the body may be 10,000 levels deep). */
export function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Refuses bodies nested deeper than any request of this API needs. */
export const limitBodyDepth: RequestHandler = (req, _res, next) => {
  if (depthOf(req.body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    return next(new ValidationError(`Invalid request: (body): nested deeper than ${MAX_BODY_DEPTH} levels`));
  }
  next();
};
