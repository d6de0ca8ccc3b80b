import type { GalleryEvent, PhotoPage, PublicPhoto } from '../../../server/contract/photos.contract.js';
import type { GuestPrintJob, PrintPauseReason } from '../../../server/contract/print.contract.js';
import type { OnlineLink } from '../../../server/contract/publish.contract.js';
import { api } from '../../shared/http.js';
import { openStream } from '../../shared/stream.js';

export type GalleryPage = PhotoPage<PublicPhoto> & { event: GalleryEvent | null };

/** The name the server gives a download (`Content-Disposition`), for a shared file. */
function fileNameOf(res: Response, fallback: string): string {
  const header = res.headers.get('Content-Disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (utf8) return decodeURIComponent(utf8);
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

export interface GalleryStreamHandlers {
  added(photo: PublicPhoto): void;
  updated(photo: PublicPhoto): void;
  removed(id: string): void;
  eventChanged(): void;
  connected(up: boolean): void;
  printJob?(job: GuestPrintJob): void;
  printStatus?(paused: PrintPauseReason): void;
  online?(link: OnlineLink): void;
}

/** What the page's boot script (renderer/gallery/boot.js) found in it and started before the app ran. */
interface BootFirstPage {
  limit: number;
  page: Promise<GalleryPage | null>;
  /** Thumbnails the server-drawn first screen already asked for. */
  shown: string[];
  /** A photo tapped before the app was there. */
  tapped: string | null;
}
declare global {
  interface Window {
    __boothdeckFirstPage?: BootFirstPage;
  }
}

const DEFAULT_PAGE = 60;

export const galleryService = {
  /** Photos per page: what fills this screen and the next, as the boot script measured it. */
  pageSize(): number {
    return window.__boothdeckFirstPage?.limit ?? DEFAULT_PAGE;
  },
  /** Thumbnails already on screen when the app starts: it shows them at once, as they are. */
  shownThumbs(): string[] {
    return window.__boothdeckFirstPage?.shown ?? [];
  },
  /** The photo a guest tapped before the app was there, once. */
  takeTapped(): string | null {
    const boot = window.__boothdeckFirstPage;
    const tapped = boot?.tapped ?? null;
    if (boot) boot.tapped = null;
    return tapped;
  },
  /** The first page the server put in the page, once; null when there is none. */
  async bootPage(): Promise<GalleryPage | null> {
    const boot = window.__boothdeckFirstPage;
    if (!boot) return null;
    const pending = boot.page;
    boot.page = Promise.resolve(null);
    return pending;
  },
  page(cursor: string | null, limit = DEFAULT_PAGE): Promise<GalleryPage> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    return api.get<GalleryPage>(`/api/gallery/photos?${query.toString()}`);
  },
  /** The photo's file, named as its download, for the Web Share API. */
  async file(photo: PublicPhoto): Promise<File> {
    const res = await fetch(photo.urls.download);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const blob = await res.blob();
    return new File([blob], fileNameOf(res, photo.id), { type: blob.type });
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
    stream.on('online', (link) => h.online?.(link));
    stream.onOpen(() => h.connected(true));
    stream.onError(() => h.connected(false));
    return () => stream.close();
  },
};
