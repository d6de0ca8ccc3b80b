import { Router } from 'express';
import { parseInput } from '../http/validate.js';
import { photoIdParam } from '../photos/photo.schema.js';
import { clientAddressFrom, guestSessionOf } from './guest-session.js';
import { adminPrintBody, counterBody, guestPrintBody, jobIdParam, printerQuery } from './print.schema.js';
import type { PrintService } from './print.service.js';
import type { PrinterResumeService } from './printer-resume.service.js';

/** /api/gallery: a guest's print session and requests (behind the guest-session middleware). */
export function galleryPrintRouter(print: PrintService): Router {
  const router = Router();
  router.get('/session', (_req, res) => {
    res.json(print.session(guestSessionOf(res), clientAddressFrom(res)));
  });
  router.post('/photos/:id/print', async (req, res) => {
    const id = parseInput(photoIdParam, req.params.id, 'photo id');
    const { copies } = parseInput(guestPrintBody, req.body);
    res.status(201).json(await print.requestGuest(guestSessionOf(res), clientAddressFrom(res), id, copies));
  });
  router.get('/print/jobs/:id', (req, res) => {
    res.json({ job: print.guestJob(guestSessionOf(res), parseInput(jobIdParam, req.params.id, 'job id')) });
  });
  return router;
}

/** /api/admin/photos/{id}/print: the operator's print, without quota. */
export function adminPhotoPrintRouter(print: PrintService): Router {
  const router = Router();
  router.post('/:id/print', async (req, res) => {
    const id = parseInput(photoIdParam, req.params.id, 'photo id');
    const { copies } = parseInput(adminPrintBody, req.body);
    res.status(201).json(await print.requestAdmin(id, copies));
  });
  return router;
}

/** /api/admin/print: the queue, the printers CUPS knows, the counters. */
export function adminPrintRouter(print: PrintService, resume: PrinterResumeService): Router {
  const router = Router();
  // The queue in use, never one named by the request: nothing to parse.
  router.post('/printer/resume', async (_req, res) => {
    res.json(await resume.resume());
  });
  router.get('/queue', async (_req, res) => {
    res.json(await print.queue());
  });
  router.get('/summary', (_req, res) => {
    res.json(print.summary());
  });
  router.get('/printers', async (_req, res) => {
    res.json({ printers: await print.printers() });
  });
  router.get('/glance', (_req, res) => {
    res.json(print.glance());
  });
  router.get('/papers', async (req, res) => {
    res.json(await print.papers(parseInput(printerQuery, req.query).printer ?? null));
  });
  router.post('/test-page', async (_req, res) => {
    res.status(201).json(await print.testPage());
  });
  router.post('/jobs/:id/count', (req, res) => {
    res.json({ job: print.countJob(parseInput(jobIdParam, req.params.id, 'job id')) });
  });
  router.post('/jobs/:id/cancel', async (req, res) => {
    res.json({ job: await print.cancel(parseInput(jobIdParam, req.params.id, 'job id')) });
  });
  router.post('/jobs/:id/retry', (req, res) => {
    res.json({ job: print.retry(parseInput(jobIdParam, req.params.id, 'job id')) });
  });
  router.post('/queue/clear', (_req, res) => {
    res.json(print.clearFinished());
  });
  router.post('/counters/reset', (req, res) => {
    res.json({ counters: print.resetCounter(parseInput(counterBody, req.body).counter) });
  });
  return router;
}
