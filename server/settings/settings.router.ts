import { Router } from 'express';
import { keyOf } from '../auth/key.guard.js';
import type { SettingsService } from './settings.service.js';

export function settingsRouter(settings: SettingsService): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.json(await settings.get());
  });
  // Field by field: settings.keys.ts says which fields the event key may change.
  router.put('/', async (req, res) => {
    res.json(await settings.update(req.body, keyOf(res)));
  });
  return router;
}
