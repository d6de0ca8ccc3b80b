import { Router, type Request, type Response } from 'express';
import { parseInput } from '../http/validate.js';
import type { PresetsService } from '../presets/presets.service.js';
import type { ActionsService } from './actions.service.js';
import { indexParam, presetBody, presetIdParam, reorderBody } from './actions.schema.js';

/** The version a client saw, from If-Match; writes made against another version are refused. */
const ifMatch = (req: Request): string | undefined => {
  const value = req.headers['if-match']?.replace(/^W\//, '').replace(/"/g, '').trim();
  return value && value !== '*' ? value : undefined;
};

const withVersion = <T extends { version: string }>(res: Response, body: T): T => {
  res.setHeader('ETag', `"${body.version}"`);
  return body;
};

/** /api/admin/actions: the action list and its presets. Presets come first: their paths are fixed. */
export function actionsRouter(actions: ActionsService, presets: PresetsService): Router {
  const router = Router();

  router.get('/presets', (_req, res) => {
    res.json({ presets: presets.list() });
  });
  router.post('/presets', async (req, res) => {
    res.status(201).json({ preset: await presets.save(parseInput(presetBody, req.body)) });
  });
  router.post('/presets/:id/restore', async (req, res) => {
    res.json(withVersion(res, await presets.restore(parseInput(presetIdParam, req.params.id, 'preset id'))));
  });
  router.delete('/presets/:id', (req, res) => {
    presets.delete(parseInput(presetIdParam, req.params.id, 'preset id'));
    res.status(204).end();
  });

  router.get('/', async (_req, res) => {
    res.json(withVersion(res, await actions.list()));
  });
  router.post('/create', async (req, res) => {
    res.status(201).json(await actions.create(req.body ?? {}, ifMatch(req)));
  });
  router.put('/reorder', async (req, res) => {
    const { order } = parseInput(reorderBody, req.body);
    res.json(withVersion(res, await actions.reorder(order, ifMatch(req))));
  });
  router.post('/:idx/clone', async (req, res) => {
    res.status(201).json(await actions.clone(parseInput(indexParam, req.params.idx, 'position'), ifMatch(req)));
  });
  router.put('/:idx', async (req, res) => {
    res.json(await actions.update(parseInput(indexParam, req.params.idx, 'position'), req.body, ifMatch(req)));
  });
  router.delete('/:idx', async (req, res) => {
    res.json(withVersion(res, await actions.remove(parseInput(indexParam, req.params.idx, 'position'), ifMatch(req))));
  });
  return router;
}
