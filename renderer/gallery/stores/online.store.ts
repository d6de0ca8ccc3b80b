import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { OnlineLink } from '../../../server/contract/publish.contract.js';
import { onlineService } from '../services/online.service.js';

/** The current event's address online, once the booth has published it. */
export const useOnlineStore = defineStore('online', () => {
  const url = ref<string | null>(null);
  const svg = ref<string | null>(null);

  /** The photo open in the lightbox and its own page online; url null while it is not online yet. */
  const photo = ref<{ id: string; url: string | null; svg: string | null } | null>(null);

  async function load(): Promise<void> {
    try {
      changed(await onlineService.link());
    } catch {
      // Nothing to show: the gallery on the booth's Wi-Fi works without it.
    }
  }

  /** The address the booth announced on the live stream, or read again; a photo's own page is asked for again under a new one. */
  function changed(link: OnlineLink): void {
    if (link.url !== url.value) photo.value = null;
    url.value = link.url;
    svg.value = link.svg;
  }

  async function loadPhoto(id: string): Promise<void> {
    // Nothing of the event is online: no photo of it is either, and no request is worth sending.
    if (url.value === null) {
      photo.value = null;
      return;
    }
    if (photo.value?.id === id && photo.value.url !== null) return;
    try {
      const link = await onlineService.photoLink(id);
      photo.value = { id, url: link.url, svg: link.svg };
    } catch {
      photo.value = { id, url: null, svg: null };
    }
  }

  return { url, svg, load, changed, photo, loadPhoto };
});
