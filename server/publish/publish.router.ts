import { Router } from 'express';
import { z } from 'zod';
import { slugParam } from '../events/event.schema.js';
import { photoIdParam } from '../photos/photo.schema.js';
import { attachment } from '../http/send.js';
import { parseInput } from '../http/validate.js';
import type { PublishService } from './publish.service.js';

const leftoverId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** /api/admin/publish: the online galleries, for the operator. */
export function adminPublishRouter(publish: PublishService): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.json(publish.overview());
  });
  router.get('/settings', (_req, res) => {
    res.json(publish.get());
  });
  router.put('/settings', async (req, res) => {
    res.json(await publish.update(req.body));
  });
  router.put('/logo', async (req, res) => {
    res.json(await publish.setLogo(req.body));
  });
  router.delete('/logo', async (_req, res) => {
    res.json(await publish.clearLogo());
  });
  router.post('/test', async (req, res) => {
    res.json(await publish.test(req.body));
  });
  router.post('/events/:slug', (req, res) => {
    res.status(202).json({ publication: publish.publish(parseInput(slugParam, req.params.slug, 'event slug')) });
  });
  router.put('/events/:slug', async (req, res) => {
    res.json({ publication: await publish.updateEvent(parseInput(slugParam, req.params.slug, 'event slug'), req.body) });
  });
  router.delete('/leftovers/:id', (req, res) => {
    publish.forgetLeftover(parseInput(leftoverId, req.params.id, 'old copy id'));
    res.status(204).end();
  });
  router.delete('/events/:slug', (req, res) => {
    res.status(202).json({ publication: publish.withdraw(parseInput(slugParam, req.params.slug, 'event slug')) });
  });
  router.get('/company-index.html', (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Disposition', attachment('index.html'));
    res.send(publish.companyIndex());
  });
  return router;
}

/** /api/gallery/online: the current event's address online, for guests, once it is there. */
export function galleryOnlineRouter(publish: PublishService): Router {
  const router = Router();
  router.get('/online', async (_req, res) => {
    res.json(await publish.onlineLink());
  });
  router.get('/online/photos/:id', async (req, res) => {
    res.json(await publish.photoLink(parseInput(photoIdParam, req.params.id, 'photo id')));
  });
  return router;
}
