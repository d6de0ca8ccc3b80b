import { Router } from 'express';
import { NotFoundError } from '../core/errors.js';
import { responseTurn } from '../http/response-turn.js';
import { attachment } from '../http/send.js';
import { parseInput } from '../http/validate.js';
import type { EventExportService } from './event-export.js';
import { createEventBody, progressToken, slugParam } from './event.schema.js';
import type { EventService } from './event.service.js';

/** /api/admin/events */
export function eventRouter(events: EventService, exports: EventExportService): Router {
  const router = Router();

  router.get('/', (_req, res) => {
    res.json(events.list());
  });

  router.post('/', (req, res) => {
    res.status(201).json({ event: events.create(parseInput(createEventBody, req.body)) });
  });

  // Makes an archived event current again, archiving the current one.
  router.post('/:slug/reopen', (req, res) => {
    res.json({ event: events.reopen(parseInput(slugParam, req.params.slug, 'event slug')) });
  });

  router.get('/:slug/export.zip', async (req, res) => {
    const slug = parseInput(slugParam, req.params.slug, 'event slug');
    const token = req.query.progress === undefined ? undefined : parseInput(progressToken, req.query.progress, 'progress token');
    // Asked behind another request on the same connection: nothing is planned or claimed until its turn.
    if (!(await responseTurn(req, res))) return;
    const plan = exports.plan(slug);
    const head = (): void => {
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', attachment(plan.fileName));
      res.setHeader('X-Export-Files', String(plan.entries.length));
      res.setHeader('X-Export-Bytes', String(plan.totalBytes));
    };
    // A HEAD asks what the export would be, not for the export itself.
    if (req.method === 'HEAD') {
      head();
      res.end();
      return;
    }
    // Before any header: a refusal is a plain JSON error, not a ZIP.
    const release = exports.claim(token);
    try {
      head();
      await exports.write(plan, res, token);
    } finally {
      release();
    }
  });

  router.get('/:slug/export/progress/:token', (req, res) => {
    parseInput(slugParam, req.params.slug, 'event slug');
    const progress = exports.progressOf(parseInput(progressToken, req.params.token, 'progress token'));
    if (!progress) throw new NotFoundError('No export with that token');
    res.json(progress);
  });

  return router;
}
