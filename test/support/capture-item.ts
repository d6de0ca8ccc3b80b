import type { MediaItem } from '../../server/capture/capture.types.js';

/**
 * Item `n` as the capture app lists it: a processed still shown in its gallery, named by `stem`
 * (the capture's time, which the index sorts by). Ids are numbered by `n`, so a test can name any.
 */
export const captureItem = (n: number, stem: string): MediaItem => ({
  id: `5c2d7e10-0000-4000-8000-${String(n).padStart(12, '0')}`,
  media_type: 'image',
  created_at: '2026-11-22T12:00:00',
  updated_at: '2026-11-22T12:00:00',
  processed: `media/processed_full/${stem}.jpg`,
  show_in_gallery: true,
});
