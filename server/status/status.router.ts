import { Router } from 'express';
import type { StatusService } from './status.service.js';

export function statusRouter(status: StatusService): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.json(await status.status());
  });
  return router;
}
