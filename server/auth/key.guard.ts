import type { Request, RequestHandler, Response } from 'express';
import type { AdminKey } from '../contract/session.contract.js';
import { ForbiddenError } from '../core/errors.js';
import { apiNotFound } from '../http/error.middleware.js';
import { sessionToken } from '../http/request-context.js';
import { pathMatcher, type RoutePattern } from '../http/route-list.js';
import type { AuthService } from './auth.service.js';
import type { RouteKey } from './route-keys.js';

const STRICTNESS: Record<RouteKey, number> = { public: 0, event: 1, owner: 2 };

interface CompiledRoute {
  method: string;
  match: RegExp;
  key: RouteKey;
}

function compile(table: Readonly<Record<string, RouteKey>>): CompiledRoute[] {
  return Object.entries(table).map(([route, key]) => {
    const [method = '', path = ''] = route.split(' ');
    return { method, match: pathMatcher(path), key };
  });
}

/** The path below /api/admin, however the guard is mounted. */
const adminPath = (req: Request): string => `${req.baseUrl}${req.path}`.replace(/^\/api\/admin/i, '') || '/';

/** The routes of a table that `tableKey` does not declare. */
export function undeclaredRoutes(routes: RoutePattern[], table: Readonly<Record<string, RouteKey>>): RoutePattern[] {
  return routes.filter((r) => !(`${r.method} ${r.path}` in table));
}

/**
 * Gives each /api/admin request the key its route declares in the table, before any route runs.
 * Several declarations matching one request (a path parameter overlapping a fixed name) take the
 * strictest. A request no declaration matches is refused whatever the session holds.
 */
export function keyGuard(auth: AuthService, table: Readonly<Record<string, RouteKey>>, realRoutes: RoutePattern[]): RequestHandler {
  const declared = compile(table);
  const real = realRoutes.map((r) => ({ method: r.method, match: pathMatcher(r.path) }));
  return (req, res, next) => {
    // Express answers HEAD with the GET route: so does the table.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const path = adminPath(req);
    let key: RouteKey | undefined;
    for (const route of declared) {
      if (route.method === method && route.match.test(path) && (key === undefined || STRICTNESS[route.key] > STRICTNESS[key]))
        key = route.key;
    }
    if (key === 'public') return next();
    // Without a session, an unknown path answers 401 like any other: nothing is learned about the routes.
    const level = auth.authorize(sessionToken(req), key ?? 'event');
    if (key === undefined) {
      if (real.some((r) => r.method === method && r.match.test(path)))
        return next(new ForbiddenError('This admin route declares no key: it is refused', 'route_key_undeclared'));
      return apiNotFound(req, res, next);
    }
    setKeyOf(res, level);
    next();
  };
}

/** The key the request's session holds, as the guard found it (the event key if it found none). */
export function keyOf(res: Response): AdminKey {
  const key: unknown = res.locals.adminKey;
  return key === 'owner' ? 'owner' : 'event';
}

function setKeyOf(res: Response, key: AdminKey): void {
  res.locals.adminKey = key;
}
