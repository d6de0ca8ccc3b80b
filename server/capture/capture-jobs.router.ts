import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../http/validate.js';
import type { CaptureJobs } from './capture-jobs.js';

const seenBody = z.strictObject({ id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

/** /api/admin/capture: the jobs the capture app failed, and the operator's "seen". */
export function captureJobsRouter(jobs: CaptureJobs): Router {
  const router = Router();
  router.get('/jobs', (_req, res) => {
    res.json(jobs.status());
  });
  router.post('/jobs/seen', (req, res) => {
    const { id } = parseInput(seenBody, req.body, 'body');
    res.json(jobs.markSeen(id));
  });
  return router;
}
