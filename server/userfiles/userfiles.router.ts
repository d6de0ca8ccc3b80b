import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../http/validate.js';
import type { UserFilesService } from './userfiles.service.js';

const previewQuery = z.object({ path: z.string().min(1, 'is required').max(300) });

export function userFilesRouter(files: UserFilesService): Router {
  const router = Router();
  router.get('/', async (_req, res) => {
    res.json({ files: await files.images() });
  });
  router.get('/preview', async (req, res) => {
    const { path } = parseInput(previewQuery, req.query, 'query');
    const preview = await files.preview(path);
    res.setHeader('Cache-Control', 'private, max-age=300');
    res.type(preview.contentType).send(preview.data);
  });
  return router;
}
