import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AdminPhoto } from '../../../server/contract/photos.contract.js';
import { localDay } from '../../../common/dates.js';
import { photosService, type PhotoFilters } from '../services/events.service.js';
import { describeError } from '../../shared/error-text.js';

const emptyFilters = (): PhotoFilters => ({ event: '', from: '', to: '', status: 'all' });

/** The server's filter rules, for photos that arrive live: days are local, on the file's mtime. */
function matches(photo: AdminPhoto, f: PhotoFilters): boolean {
  const day = (iso: string): string => localDay(new Date(iso));
  if (f.event && photo.event?.slug !== f.event) return false;
  if (f.status === 'printed' && photo.printed_copies === 0) return false;
  if (f.status === 'not_printed' && photo.printed_copies > 0) return false;
  if (f.from && day(photo.mtime) < f.from) return false;
  if (f.to && day(photo.mtime) > f.to) return false;
  return true;
}

/**
 * The admin gallery: filtered photos loaded page by page. A request for a page that comes back
 * after the filters changed is dropped, so the grid never mixes two filters.
 */
export const useAdminGalleryStore = defineStore('adminGallery', () => {
  const photos = ref<AdminPhoto[]>([]);
  const filters = ref<PhotoFilters>(emptyFilters());
  const cursor = ref<string | null>(null);
  const done = ref(false);
  const loading = ref(false);
  const error = ref<string | null>(null);
  let generation = 0;

  const filtered = computed(() => JSON.stringify(filters.value) !== JSON.stringify(emptyFilters()));

  /** Loads the next page; resolves to whether more pages remain. */
  async function loadMore(): Promise<boolean> {
    if (loading.value || done.value) return !done.value;
    loading.value = true;
    const mine = generation;
    try {
      const page = await photosService.list(filters.value, cursor.value);
      // Superseded by a reload: its own first page is on the way, and more may follow.
      if (mine !== generation) return true;
      const known = new Set(photos.value.map((p) => p.id));
      photos.value.push(...page.photos.filter((p) => !known.has(p.id)));
      cursor.value = page.next_cursor;
      done.value = page.next_cursor === null;
      error.value = null;
      return !done.value;
    } catch (err) {
      if (mine === generation) error.value = describeError(err, { reading: true });
      return false;
    } finally {
      if (mine === generation) loading.value = false;
    }
  }

  async function reload(): Promise<void> {
    generation++;
    photos.value = [];
    cursor.value = null;
    done.value = false;
    loading.value = false;
    await loadMore();
  }

  function setFilters(next: PhotoFilters): Promise<void> {
    filters.value = { ...next };
    return reload();
  }

  const clearFilters = (): Promise<void> => setFilters(emptyFilters());

  /** A new photo is the newest: it goes first, if the filters let it in at all. */
  function added(photo: AdminPhoto): void {
    if (photos.value.some((p) => p.id === photo.id) || !matches(photo, filters.value)) return;
    photos.value.unshift(photo);
  }

  function updated(photo: AdminPhoto): void {
    const i = photos.value.findIndex((p) => p.id === photo.id);
    if (i >= 0) photos.value[i] = photo;
  }

  function removed(id: string): void {
    photos.value = photos.value.filter((p) => p.id !== id);
  }

  async function remove(id: string): Promise<void> {
    await photosService.remove(id);
    removed(id);
  }

  return { photos, filters, done, loading, error, filtered, loadMore, reload, setFilters, clearFilters, added, updated, removed, remove };
});
