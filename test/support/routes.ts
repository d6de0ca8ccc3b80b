import type { Router } from 'express';

export interface RouteEntry {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** Express 5 keeps the path given to router.use() here. */
  rawPath?: string;
}

/** Sample values for path parameters, so that every route can be called. */
const sample = (path: string): string =>
  path.replace(/:(\w+)/g, (_m, name: string) => (name === 'idx' ? '0' : name === 'slug' ? 'sample' : 'x'));

/** Lists every route of an Express router, mounted sub-routers included, with sample parameters. */
export function listRoutes(router: Router, prefix = ''): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') continue;
          out.push({ method: method.toUpperCase(), path: sample(`${prefix}${p === '/' ? '' : p}`) || '/' });
        }
      }
    } else if (layer.handle?.stack) {
      const mount = layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : '';
      out.push(...listRoutes(layer.handle as unknown as Router, `${prefix}${mount}`));
    }
  }
  return out;
}
