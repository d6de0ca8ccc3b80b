import type { PhotoPage, PublicPhoto } from '../../../server/contract/photos.contract.js';
import type { GuestPrintJob, PrintPauseReason } from '../../../server/contract/print.contract.js';
import { api } from '../../shared/http.js';
import { openStream } from '../../shared/stream.js';

export type GalleryPage = PhotoPage<PublicPhoto> & { event: { name: string } | null };

export interface GalleryStreamHandlers {
  added(photo: PublicPhoto): void;
  updated(photo: PublicPhoto): void;
  removed(id: string): void;
  eventChanged(): void;
  connected(up: boolean): void;
  printJob?(job: GuestPrintJob): void;
  printStatus?(paused: PrintPauseReason): void;
}

export const galleryService = {
  page(cursor: string | null, limit = 30): Promise<GalleryPage> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    return api.get<GalleryPage>(`/api/gallery/photos?${query.toString()}`);
  },
  /** New photos as they are taken; the browser reconnects the stream by itself. */
  openStream(h: GalleryStreamHandlers): () => void {
    const stream = openStream('gallery', '/api/gallery/stream');
    stream.on('photo-added', (photo) => h.added(photo));
    stream.on('photo-updated', (photo) => h.updated(photo));
    stream.on('photo-removed', ({ id }) => h.removed(id));
    stream.on('event', () => h.eventChanged());
    stream.on('print-job', (job) => h.printJob?.(job));
    stream.on('print-status', ({ paused }) => h.printStatus?.(paused));
    stream.onOpen(() => h.connected(true));
    stream.onError(() => h.connected(false));
    return () => stream.close();
  },
};
