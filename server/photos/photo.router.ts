import { Router, type Request, type Response } from 'express';
import { attachment, PREVIEW_DEADLINE_MS, sendCaptureFile } from '../http/send.js';
import { parseInput } from '../http/validate.js';
import { sendSharedJson } from '../http/json-cache.js';
import { adminPhotoQuery, photoIdParam, publicPhotoQuery } from './photo.schema.js';
import type { PhotoService } from './photo.service.js';
import type { Picture } from './photo-media.js';

type Scope = 'admin' | 'gallery';

/**
 * A picture asked for under its current version (`?v=`, as the photo lists give it) never
 * changes: it is kept for good. Asked without it, or under an old one (a filter was applied
 * since), it must be checked again each time; so must a placeholder, which the real picture
 * replaces as soon as it can be drawn.
 */
function cacheFor(req: Request, version: string, placeholder = false): string {
  return !placeholder && req.query.v === version ? 'private, max-age=31536000, immutable' : 'private, no-cache';
}

const sendPicture = (req: Request, res: Response, picture: Picture): void => {
  res.set({
    'Cache-Control': cacheFor(req, picture.version, picture.placeholder),
    'Content-Type': picture.contentType,
    'Content-Length': String(picture.data.length),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(picture.data);
};

/** Thumbnail, preview and download of one photo, for the admin or for guests (current event only). */
function photoFiles(router: Router, photos: PhotoService, scope: Scope): void {
  router.get('/:id/thumb', async (req, res) => {
    sendPicture(req, res, await photos.thumbnail(scope, parseInput(photoIdParam, req.params.id, 'photo id')));
  });
  router.get('/:id/preview', async (req, res) => {
    const preview = await photos.preview(scope, parseInput(photoIdParam, req.params.id, 'photo id'));
    if ('data' in preview) sendPicture(req, res, preview);
    else if ('local' in preview)
      res.sendFile(preview.local, { headers: { 'Cache-Control': cacheFor(req, preview.version), 'Content-Type': preview.contentType } });
    else await sendCaptureFile(res, preview.remote, { 'Cache-Control': cacheFor(req, preview.version) }, PREVIEW_DEADLINE_MS);
  });
  router.get('/:id/media', async (req, res) => {
    const source = await photos.media(scope, parseInput(photoIdParam, req.params.id, 'photo id'));
    const cache = cacheFor(req, photos.versionOf(req.params.id) ?? '');
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
