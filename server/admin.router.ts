import { Router } from 'express';
import type { Services } from './services.js';
import { statusRouter } from './status/status.router.js';

/** Every /api/admin route that needs a session; the guard sits in front of this router. */
export function adminRouter(services: Services): Router {
  const router = Router();
  router.use('/status', statusRouter(services.status));
  return router;
}
