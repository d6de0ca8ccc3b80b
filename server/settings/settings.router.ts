import { Router } from 'express';
import type { SettingsService } from './settings.service.js';

export function settingsRouter(settings: SettingsService): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.json(await settings.get());
  });
  router.put('/', async (req, res) => {
    res.json(await settings.update(req.body));
  });
  return router;
}
