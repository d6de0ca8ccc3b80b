import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AdminPhoto, CollagePartsMode } from '../../../server/contract/photos.contract.js';
import { dashboardService } from '../services/dashboard.service.js';
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

  /** A collage's parts are listed under it: the grid and the lightbox go through them after it. */
  const flat = computed<AdminPhoto[]>(() => photos.value.flatMap((p) => [p, ...(p.parts ?? [])]));

  /** Puts a part under its collage (replacing its older self); false when the collage is not listed. */
  function placePart(part: AdminPhoto): boolean {
    const collage = photos.value.find((p) => p.id === part.part_of);
    if (!collage) return false;
    const parts = (collage.parts ?? []).filter((p) => p.id !== part.id);
    collage.parts = [...parts, part].sort((a, b) => a.taken_at.localeCompare(b.taken_at));
    return true;
  }

  /** A new photo is the newest: it goes first, if the filters let it in at all; a part goes under its collage. */
  function added(photo: AdminPhoto): void {
    if (flat.value.some((p) => p.id === photo.id) || !matches(photo, filters.value)) return;
    if (photo.part_of && placePart(photo)) return;
    photos.value.unshift(photo);
  }

  /** A photo changed; a part that has just been matched with its collage moves under it. */
  function updated(photo: AdminPhoto): void {
    if (photo.part_of && placePart(photo)) {
      photos.value = photos.value.filter((p) => p.id !== photo.id);
      return;
    }
    const i = photos.value.findIndex((p) => p.id === photo.id);
    if (i >= 0) photos.value[i] = { ...photo, parts: photo.parts ?? photos.value[i]?.parts };
  }

  function removed(id: string): void {
    photos.value = photos.value.filter((p) => p.id !== id);
    for (const p of photos.value) if (p.parts?.some((part) => part.id === id)) p.parts = p.parts.filter((part) => part.id !== id);
  }

  /** How guests see a collage's parts (the gallery setting); null until read. */
  const partsMode = ref<CollagePartsMode | null>(null);
  const partsModeError = ref<string | null>(null);

  async function loadPartsMode(): Promise<void> {
    try {
      partsMode.value = (await dashboardService.settings()).gallery.collage_parts;
      partsModeError.value = null;
    } catch (err) {
      partsModeError.value = describeError(err, { reading: true });
    }
  }

  /** Saves the choice; the guests' gallery follows at their next page. */
  async function savePartsMode(mode: CollagePartsMode): Promise<boolean> {
    const before = partsMode.value;
    partsMode.value = mode;
    try {
      partsMode.value = (await dashboardService.saveSettings({ gallery: { collage_parts: mode } })).gallery.collage_parts;
      partsModeError.value = null;
      return true;
    } catch (err) {
      partsMode.value = before;
      partsModeError.value = describeError(err);
      return false;
    }
  }

  async function remove(id: string): Promise<void> {
    await photosService.remove(id);
    removed(id);
  }

  return {
    photos,
    flat,
    filters,
    done,
    loading,
    error,
    filtered,
    loadMore,
    reload,
    setFilters,
    clearFilters,
    added,
    updated,
    removed,
    remove,
    partsMode,
    partsModeError,
    loadPartsMode,
    savePartsMode,
  };
});
