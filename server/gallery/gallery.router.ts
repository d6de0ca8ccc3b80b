import { Router } from 'express';
import type { EventHub } from '../core/event-hub.js';
import { streamChannel } from '../http/sse.js';
import { galleryPhotoRouter } from '../photos/photo.router.js';
import type { PhotoService } from '../photos/photo.service.js';

/** /api/gallery: the public gallery of the current event, for guests' phones. */
export function galleryRouter(photos: PhotoService, hub: EventHub): Router {
  const router = Router();
  router.use('/photos', galleryPhotoRouter(photos));
  router.get('/stream', (req, res) => {
    streamChannel(hub, 'gallery', req, res);
  });
  return router;
}
