import { Router } from 'express';
import { z } from 'zod';
import type { LogsResponse } from '../contract/dashboard.contract.js';
import { LOG_FILE_STEM } from '../core/logger.js';
import { readLogTail } from '../core/log/log-tail.js';
import { parseInput } from '../http/validate.js';
import type { BackupService } from './backup.service.js';
import type { DashboardService } from './dashboard.service.js';
import type { MaintenanceService } from './maintenance.service.js';

export function dashboardRouter(dashboard: DashboardService): Router {
  const router = Router();
  router.get('/status', async (_req, res) => {
    res.json(await dashboard.status());
  });
  return router;
}

/** POST only: a link or a prefetch can never restart anything. */
export function maintenanceRouter(maintenance: MaintenanceService): Router {
  const router = Router();
  router.post('/restart-capture-app', (_req, res) => {
    res.status(202).json(maintenance.restartCapture());
  });
  router.post('/restart-boothdeck', (_req, res) => {
    res.status(202).json(maintenance.restartBoothdeck());
  });
  router.post('/reboot', async (_req, res) => {
    res.status(202).json(await maintenance.reboot());
  });
  return router;
}

const logsQuery = z.strictObject({
  level: z.enum(['info', 'warn', 'error']).default('info'),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export function logsRouter(logDir: string | undefined): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const q = parseInput(logsQuery, req.query, 'query');
    const body: LogsResponse = {
      lines: logDir ? await readLogTail(logDir, LOG_FILE_STEM, { limit: q.limit, minLevel: q.level }) : [],
    };
    res.json(body);
  });
  return router;
}

export function backupRouter(backup: BackupService): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    const body = await backup.create();
    const stamp = body.created_at.slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    res.setHeader('Content-Disposition', `attachment; filename="boothdeck-backup-${stamp}.json"`);
    res.json(body);
  });
  router.post('/', async (req, res) => {
    res.json({ restored: await backup.restore(req.body) });
  });
  return router;
}
