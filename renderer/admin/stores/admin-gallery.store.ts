import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AdminPhoto } from '../../../server/contract/photos.contract.js';
import { photosService, type PhotoFilters } from '../services/events.service.js';

const emptyFilters = (): PhotoFilters => ({ event: '', from: '', to: '', status: 'all' });

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
  /** New photos announced while filters are on: shown on demand. */
  const pendingNew = ref(0);
  let generation = 0;

  const filtered = computed(() => JSON.stringify(filters.value) !== JSON.stringify(emptyFilters()));

  async function loadMore(): Promise<void> {
    if (loading.value || done.value) return;
    loading.value = true;
    const mine = generation;
    try {
      const page = await photosService.list(filters.value, cursor.value);
      if (mine !== generation) return;
      const known = new Set(photos.value.map((p) => p.id));
      photos.value.push(...page.photos.filter((p) => !known.has(p.id)));
      cursor.value = page.next_cursor;
      done.value = page.next_cursor === null;
      error.value = null;
    } catch (err) {
      if (mine === generation) error.value = err instanceof Error ? err.message : String(err);
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
    pendingNew.value = 0;
    await loadMore();
  }

  function setFilters(next: PhotoFilters): Promise<void> {
    filters.value = { ...next };
    return reload();
  }

  const clearFilters = (): Promise<void> => setFilters(emptyFilters());

  function added(photo: AdminPhoto): void {
    if (photos.value.some((p) => p.id === photo.id)) return;
    if (filtered.value) pendingNew.value++;
    else photos.value.unshift(photo);
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

  return { photos, filters, done, loading, error, pendingNew, filtered, loadMore, reload, setFilters, clearFilters, added, updated, removed, remove };
});
