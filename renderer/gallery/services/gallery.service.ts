import type { PhotoPage, PublicPhoto } from '../../../server/contract/photos.contract.js';
import { api } from '../../shared/http.js';

export type GalleryPage = PhotoPage<PublicPhoto> & { event: { name: string } | null };

export interface GalleryStreamHandlers {
  added(photo: PublicPhoto): void;
  updated(photo: PublicPhoto): void;
  removed(id: string): void;
  eventChanged(): void;
  connected(up: boolean): void;
}

export const galleryService = {
  page(cursor: string | null, limit = 30): Promise<GalleryPage> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    return api.get<GalleryPage>(`/api/gallery/photos?${query.toString()}`);
  },
  /** New photos as they are taken; the browser reconnects the stream by itself. */
  openStream(h: GalleryStreamHandlers): () => void {
    const source = new EventSource('/api/gallery/stream');
    const data = <T>(e: Event): T => JSON.parse((e as MessageEvent<string>).data) as T;
    source.addEventListener('photo-added', (e) => h.added(data<PublicPhoto>(e)));
    source.addEventListener('photo-updated', (e) => h.updated(data<PublicPhoto>(e)));
    source.addEventListener('photo-removed', (e) => h.removed(data<{ id: string }>(e).id));
    source.addEventListener('event', () => h.eventChanged());
    source.addEventListener('open', () => h.connected(true));
    source.addEventListener('error', () => h.connected(false));
    return () => source.close();
  },
};
