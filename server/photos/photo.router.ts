import { Router, type Response } from 'express';
import { attachment, sendCaptureFile } from '../http/send.js';
import { parseInput } from '../http/validate.js';
import { sendSharedJson } from '../http/json-cache.js';
import { adminPhotoQuery, photoIdParam, publicPhotoQuery } from './photo.schema.js';
import type { PhotoService } from './photo.service.js';

type Scope = 'admin' | 'gallery';

const sendThumb = (res: Response, data: Buffer): void => {
  // A photo never changes under its id: its thumbnail can be kept, and needs no ETag to compute.
  res.set({ 'Cache-Control': 'private, max-age=604800, immutable', 'Content-Type': 'image/webp', 'Content-Length': String(data.length) });
  res.end(data);
};

/** Thumbnail, preview and download of one photo, for the admin or for guests (current event only). */
function photoFiles(router: Router, photos: PhotoService, scope: Scope): void {
  router.get('/:id/thumb', async (req, res) => {
    sendThumb(res, await photos.thumbnail(scope, parseInput(photoIdParam, req.params.id, 'photo id')));
  });
  router.get('/:id/preview', async (req, res) => {
    const file = await photos.preview(scope, parseInput(photoIdParam, req.params.id, 'photo id'));
    await sendCaptureFile(res, file, { 'Cache-Control': 'private, max-age=86400' });
  });
  router.get('/:id/media', async (req, res) => {
    const source = await photos.media(scope, parseInput(photoIdParam, req.params.id, 'photo id'));
    const cache = 'private, max-age=86400';
    // A local file answers ranges, which browsers need to seek in (and, on iOS, to play) a video.
    if ('local' in source) res.sendFile(source.local, { headers: { 'Cache-Control': cache, 'Content-Type': source.contentType } });
    else await sendCaptureFile(res, source.remote, { 'Cache-Control': cache });
  });
  router.get('/:id/download', async (req, res) => {
    const { fileName, file } = await photos.download(scope, parseInput(photoIdParam, req.params.id, 'photo id'));
    await sendCaptureFile(res, file, { 'Content-Disposition': attachment(fileName) });
  });
}

/** /api/admin/photos */
export function adminPhotoRouter(photos: PhotoService): Router {
  const router = Router();
  router.get('/', (req, res) => {
    res.json(photos.listAdmin(parseInput(adminPhotoQuery, req.query, 'query')));
  });
  photoFiles(router, photos, 'admin');
  router.delete('/:id', async (req, res) => {
    await photos.delete(parseInput(photoIdParam, req.params.id, 'photo id'));
    res.status(204).end();
  });
  return router;
}

/** /api/gallery/photos: what a guest's phone may ask for. */
export function galleryPhotoRouter(photos: PhotoService): Router {
  const router = Router();
  router.get('/', (req, res) => {
    const q = parseInput(publicPhotoQuery, req.query, 'query');
    sendSharedJson(req, res, photos.listPublic(q.cursor, q.limit));
  });
  photoFiles(router, photos, 'gallery');
  return router;
}
