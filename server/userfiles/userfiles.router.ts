import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../http/validate.js';
import type { UserFilesService } from './userfiles.service.js';

/** `v` is the file's digest from the listing: a new one when the file changes, so caches never show an old frame. */
const previewQuery = z.object({
  path: z.string().min(1, 'is required').max(300),
  v: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
});

export function userFilesRouter(files: UserFilesService): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.json({ files: await files.images() });
  });
  router.get('/preview', async (req, res) => {
    const { path, v } = parseInput(previewQuery, req.query, 'query');
    const preview = await files.preview(path);
    // An address with the file's digest never changes picture; a bare path may at any time.
    res.setHeader('Cache-Control', v ? 'private, max-age=86400' : 'private, no-cache');
    res.type(preview.contentType).send(preview.data);
  });
  return router;
}
