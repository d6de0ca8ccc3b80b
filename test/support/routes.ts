import type { Router } from 'express';
import { listRoutePatterns } from '../../server/http/route-list.js';

export interface RouteEntry {
  method: string;
  path: string;
}

/** Sample values for path parameters, so that every route can be called. */
const sample = (path: string): string =>
  path.replace(/:(\w+)/g, (_m, name: string) => (name === 'idx' ? '0' : name === 'slug' ? 'sample' : 'x'));

/** Lists every route of an Express router, mounted sub-routers included, with sample parameters. */
export function listRoutes(router: Router, prefix = ''): RouteEntry[] {
  return listRoutePatterns(router, prefix).map(({ method, path }) => ({ method, path: sample(path) }));
}
