import path from 'node:path';
import express, { type Express } from 'express';
import { adminRouter } from './admin.router.js';
import { authRouter } from './auth/auth.router.js';
import { galleryRouter } from './gallery/gallery.router.js';
import { galleryPageRouter } from './gallery/gallery-page.router.js';
import { GalleryPageService } from './gallery/gallery-page.service.js';
import { galleryPrintRouter } from './print/print.router.js';
import { galleryOnlineRouter } from './publish/publish.router.js';
import { apiNotFound, errorMiddleware, pageNotFound } from './http/error.middleware.js';
import { keyGuard, undeclaredRoutes } from './auth/key.guard.js';
import { ADMIN_ROUTE_KEYS } from './auth/route-keys.js';
import { listRoutePatterns } from './http/route-list.js';
import { sameOriginGuard } from './http/guards.middleware.js';
import { securityHeaders } from './http/security.middleware.js';
import { limitBodyDepth, requireJsonBody } from './http/body.middleware.js';
import { boothHosts, hostGuard, type AllowedHosts } from './http/host.guard.js';
import { rendererRouter } from './http/static.js';
import type { Logger } from './core/logger.js';
import type { Services } from './services.js';

export interface AppDeps {
  services: Services;
  rendererDir: string;
  log: Logger;
  /** Host names the admin API answers to, beyond loopback; by default the booth's own. */
  allowedHosts?: AllowedHosts;
}

/** JSON bodies of this API are small; anything larger is refused before it is parsed. */
export const JSON_BODY_LIMIT = '64kb';
/** A backup file holds every action and preset: it may be larger than any other request. */
export const BACKUP_BODY_LIMIT = '4mb';
export const LOGO_BODY_LIMIT = '400kb';

/** Everything under /api/admin: the session's routes and the console's. */
export function adminApi(services: Services): express.Router {
  const admin = express.Router();
  admin.use('/session', authRouter(services.auth, { simulator: services.health.simulator }));
  admin.use(adminRouter(services));
  return admin;
}

/** Builds the HTTP app. It never listens: the host decides where and when. */
export function createApp(deps: AppDeps): Express {
  const { services } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'strong');
  app.use(securityHeaders);

  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(services.health.status());
  });

  // Every admin route, the session's own included, sits behind one guard that gives it the key
  // the table declares (server/auth/route-keys.ts); an undeclared route is refused.
  const admin = adminApi(services);
  const adminRoutes = listRoutePatterns(admin);
  const undeclared = undeclaredRoutes(adminRoutes, ADMIN_ROUTE_KEYS);
  if (undeclared.length > 0)
    deps.log.error(`Admin routes without a key in route-keys.ts are refused: ${undeclared.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  const guard = keyGuard(services.auth, ADMIN_ROUTE_KEYS, adminRoutes);

  const api = express.Router();
  const allowedHosts = deps.allowedHosts ?? (() => boothHosts(() => services.settings.stored().gallery.public_url));
  // The Host check comes before anything that looks at a session: another site's page resolved
  // to the booth (DNS rebinding) learns nothing, not even whether a session would be needed.
  api.use('/admin', hostGuard(allowedHosts));
  api.use(sameOriginGuard);
  api.use(requireJsonBody);
  // Only the owner's key may make the service parse a body as large as a backup.
  api.use('/admin/backup', guard, express.json({ limit: BACKUP_BODY_LIMIT, strict: true }));
  // The published pages' logo (256 KB at most, in base64), for the owner's key only.
  api.use('/admin/publish/logo', guard, express.json({ limit: LOGO_BODY_LIMIT, strict: true }));
  api.use(express.json({ limit: JSON_BODY_LIMIT, strict: true }));
  api.use(limitBodyDepth);
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  api.use('/admin', guard, admin);
  api.use(
    '/gallery',
    services.guestSessions.middleware(),
    galleryPrintRouter(services.print),
    galleryOnlineRouter(services.publishing.service),
    galleryRouter(services.photos, services.hub),
  );
  api.use(apiNotFound);
  app.use('/api', api);

  const galleryPage = new GalleryPageService(path.join(deps.rendererDir, 'gallery', 'index.html'), services.photos, deps.log);
  app.use(galleryPageRouter(galleryPage, services.guestSessions.middleware()));
  app.use(rendererRouter(deps.rendererDir));
  app.use(pageNotFound);
  app.use(
    errorMiddleware(
      (err) => deps.log.error('Unhandled error while serving a request', err),
      () => services.disk.noteFull(),
    ),
  );
  return app;
}
