import { Router } from 'express';
import { actionsRouter } from './actions/actions.router.js';
import { eventRouter } from './events/event.router.js';
import { hardwareRouter } from './hardware/hardware.router.js';
import { adminPhotoRouter } from './photos/photo.router.js';
import { adminPhotoPrintRouter, adminPrintRouter } from './print/print.router.js';
import type { Services } from './services.js';
import { settingsRouter } from './settings/settings.router.js';
import { statusRouter } from './status/status.router.js';
import { adminStreamRouter, systemRouter } from './system/system.router.js';
import { captureJobsRouter } from './capture/capture-jobs.router.js';
import { userFilesRouter } from './userfiles/userfiles.router.js';
import { adminPublishRouter } from './publish/publish.router.js';
import { backupRouter, dashboardRouter, logsRouter, maintenanceRouter } from './dashboard/dashboard.router.js';

/** Every /api/admin route that needs a session; the guard sits in front of this router. */
export function adminRouter(services: Services): Router {
  const router = Router();
  router.use('/status', statusRouter(services.status));
  router.use('/actions', actionsRouter(services.actions, services.presets));
  router.use('/settings', settingsRouter(services.settings));
  router.use('/userfiles', userFilesRouter(services.userFiles));
  router.use('/system', systemRouter(services.restarter));
  router.use('/system', maintenanceRouter(services.maintenance));
  router.use('/dashboard', dashboardRouter(services.dashboard));
  router.use('/logs', logsRouter(services.logDir));
  router.use('/backup', backupRouter(services.backup));
  router.use('/stream', adminStreamRouter(services.hub, services.restarter, services.captureJobs));
  router.use('/capture', captureJobsRouter(services.captureJobs));
  router.use('/events', eventRouter(services.events, services.exports));
  router.use('/photos', adminPhotoPrintRouter(services.print), adminPhotoRouter(services.photos));
  router.use('/print', adminPrintRouter(services.print, services.printerResume));
  router.use('/hardware', hardwareRouter(services.hardware));
  router.use(
    '/publish',
    (req, res, next) => {
      // A change of the operator's (withdrawn, another address) may change what guests are shown online.
      if (req.method !== 'GET') res.once('finish', () => services.onlineLink.check());
      next();
    },
    adminPublishRouter(services.publishing.service),
  );
  router.get('/gallery-link', async (_req, res) => {
    res.json(await services.galleryLink.get());
  });
  return router;
}
