import { Router } from 'express';
import type { EventHub } from '../core/event-hub.js';
import { streamChannel } from '../http/sse.js';
import type { CaptureRestartService } from './capture-restart.service.js';
import type { CaptureJobs } from '../capture/capture-jobs.js';

export function systemRouter(restarter: CaptureRestartService): Router {
  const router = Router();
  router.get('/capture-restart', (_req, res) => {
    res.json(restarter.status());
  });
  router.post('/capture-restart', (_req, res) => {
    restarter.request('manual');
    res.status(202).json(restarter.status());
  });
  // The operator's choice while a restart waits for a guest's job: go ahead now.
  router.post('/capture-restart/now', (_req, res) => {
    res.json(restarter.restartNow());
  });
  return router;
}

/** /api/admin/stream: live events for the console (restart progress first of all). */
export function adminStreamRouter(hub: EventHub, restarter: CaptureRestartService, jobs: CaptureJobs): Router {
  const router = Router();
  router.get('/', (req, res) => {
    streamChannel(hub, 'admin', req, res, [
      { event: 'restart', data: restarter.status() },
      { event: 'capture-jobs', data: jobs.status() },
    ]);
  });
  return router;
}
