import type { Router } from 'express';

/** One route as Express declares it: `GET /photos/:id/thumb`. */
export interface RoutePattern {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** Express 5 keeps the path given to router.use() here. */
  rawPath?: string;
}

/** Every route of a router, mounted sub-routers included, read from Express's own stack. */
export function listRoutePatterns(router: Router, prefix = ''): RoutePattern[] {
  const out: RoutePattern[] = [];
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') continue;
          out.push({ method: method.toUpperCase(), path: `${prefix}${p === '/' ? '' : p}` || '/' });
        }
      }
    } else if (layer.handle?.stack) {
      const mount = layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : '';
      out.push(...listRoutePatterns(layer.handle as unknown as Router, `${prefix}${mount}`));
    }
  }
  return out;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A matcher for an Express path with `:name` segments, as lenient as Express's own (case-blind,
 * one trailing slash allowed) so that no spelling of a path Express routes can slip past it.
 */
export function pathMatcher(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((segment) => segment.replace(/:\w+|[^:]+/g, (part) => (part.startsWith(':') ? '[^/]+' : escape(part))))
    .join('/');
  return new RegExp(`^${body}/?$`, 'i');
}
