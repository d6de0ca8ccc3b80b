import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { PublicPhoto } from '../../../server/contract/photos.contract.js';
import { galleryService } from '../services/gallery.service.js';
import { browserCanShare, photoAddress } from '../services/share.service.js';
import { useOnlineStore } from './online.store.js';
import { usePrintStore } from './print.store.js';

const RETRY_AFTER_MS = 5000;
/** Photos asked for to find those taken between the first page and the stream's opening: a few seconds' worth. */
const CATCH_UP = 24;

/** The current event's photos for a guest, newest first, kept live. */
export const useGalleryStore = defineStore('gallery', () => {
  const photos = ref<PublicPhoto[]>([]);
  const eventName = ref<string | null>(null);
  const welcome = ref<string | null>(null);
  /** Every photo of the event guests can see, loaded or not yet. */
  const photoCount = ref(0);
  const loaded = ref(false);
  const loading = ref(false);
  const done = ref(false);
  const error = ref(false);
  const live = ref(false);
  /** Whether the live stream has opened or failed once: until then the page is neither live nor offline. */
  const streamAnswered = ref(false);
  let cursor: string | null = null;
  let generation = 0;
  let everConnected = false;
  let close: (() => void) | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  /** Loads the next page; resolves to whether more pages remain. */
  async function loadMore(): Promise<boolean> {
    if (loading.value || done.value) return !done.value;
    loading.value = true;
    const mine = generation;
    try {
      const first = cursor === null ? await galleryService.bootPage() : null;
      const page = first ?? (await galleryService.page(cursor, galleryService.pageSize()));
      // Superseded by a reload: its own first page is on the way, and more may follow.
      if (mine !== generation) return true;
      const known = new Set(photos.value.map((p) => p.id));
      photos.value.push(...page.photos.filter((p) => !known.has(p.id)));
      eventName.value = page.event?.name ?? null;
      welcome.value = page.event?.welcome ?? null;
      photoCount.value = Math.max(page.event?.photo_count ?? 0, photos.value.length);
      cursor = page.next_cursor;
      done.value = cursor === null;
      error.value = false;
      return !done.value;
    } catch {
      if (mine === generation) {
        error.value = true;
        // The page resumes by itself: a guest will not think of reloading it.
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => void reload(), RETRY_AFTER_MS);
      }
      return false;
    } finally {
      if (mine === generation) {
        loading.value = false;
        loaded.value = true;
      }
    }
  }

  async function reload(): Promise<void> {
    clearTimeout(retryTimer);
    generation++;
    photos.value = [];
    cursor = null;
    done.value = false;
    loading.value = false;
    await loadMore();
  }

  /**
   * Photos taken between the first page and the stream's first connection: merged at the top,
   * without emptying the grid the guest is already looking at.
   */
  async function catchUp(): Promise<void> {
    const mine = generation;
    try {
      const page = await galleryService.page(null, CATCH_UP);
      if (mine !== generation) return;
      const known = new Set(photos.value.map((p) => p.id));
      const newest = photos.value[0]?.taken_at ?? '';
      const fresh = page.photos.filter((p) => !known.has(p.id) && p.taken_at > newest);
      // Every one of them new and more behind: photos may be missing between them and the grid.
      if (fresh.length === page.photos.length && page.next_cursor !== null && photos.value.length > 0) {
        void reload();
        return;
      }
      photos.value.unshift(...fresh);
      photoCount.value += fresh.length;
    } catch {
      // The stream is up: the photos that follow arrive through it; a later reconnection reloads.
    }
  }

  function connect(): void {
    close ??= galleryService.openStream({
      added: (photo) => {
        if (photos.value.some((p) => p.id === photo.id)) return;
        photos.value.unshift(photo);
        photoCount.value++;
      },
      updated: (photo) => {
        const i = photos.value.findIndex((p) => p.id === photo.id);
        if (i >= 0) photos.value[i] = photo;
      },
      removed: (id) => {
        const before = photos.value.length;
        photos.value = photos.value.filter((p) => p.id !== id);
        // A photo not loaded yet leaves the count too; one never seen here cannot be told apart.
        if (photos.value.length < before || !done.value) photoCount.value = Math.max(0, photoCount.value - 1);
      },
      eventChanged: () => void reload(),
      printJob: (job) => usePrintStore().jobChanged(job),
      printStatus: (paused) => usePrintStore().statusChanged(paused),
      online: (link) => useOnlineStore().changed(link),
      connected: (up) => {
        streamAnswered.value = true;
        // Back after a cut: photos taken meanwhile are fetched again.
        // A first connection after a good first page only checks the top for photos taken meanwhile.
        if (up && !live.value && (loaded.value || error.value)) void (everConnected || error.value ? reload() : catchUp());
        // The event may have gone online or offline while the stream was cut: its address is read again.
        if (up && !live.value && everConnected) void useOnlineStore().load();
        if (up) everConnected = true;
        live.value = up;
      },
    });
  }

  /**
   * Shares a photo with the phone's share sheet (messaging apps, saving to the photos): its file
   * where the browser shares files, else its address. Resolves to how it went; 'failed' means
   * the browser could not share it (the page then offers the photo's QR code).
   */
  async function share(photo: PublicPhoto): Promise<'shared' | 'cancelled' | 'failed'> {
    if (!browserCanShare()) return 'failed';
    const title = eventName.value ?? undefined;
    try {
      const file = typeof navigator.canShare === 'function' ? await galleryService.file(photo) : null;
      if (file && navigator.canShare({ files: [file] })) await navigator.share({ files: [file], title });
      else await navigator.share({ url: photoAddress(photo), title });
      return 'shared';
    } catch (err) {
      return err instanceof DOMException && err.name === 'AbortError' ? 'cancelled' : 'failed';
    }
  }

  /** The photo a guest tapped on the page's first screen before the app was there, once. */
  function tappedBeforeStart(): number | null {
    const id = galleryService.takeTapped();
    const at = id === null ? -1 : photos.value.findIndex((p) => p.id === id);
    return at >= 0 ? at : null;
  }

  return {
    photos,
    eventName,
    welcome,
    photoCount,
    share,
    tappedBeforeStart,
    loaded,
    loading,
    done,
    error,
    live,
    streamAnswered,
    loadMore,
    reload,
    connect,
  };
});
