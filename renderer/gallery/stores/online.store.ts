import { defineStore } from 'pinia';
import { ref } from 'vue';
import { onlineService } from '../services/online.service.js';

/** The current event's address online, once the booth has published it. */
export const useOnlineStore = defineStore('online', () => {
  const url = ref<string | null>(null);
  const svg = ref<string | null>(null);

  async function load(): Promise<void> {
    try {
      const link = await onlineService.link();
      url.value = link.url;
      svg.value = link.svg;
    } catch {
      // Nothing to show: the gallery on the booth's Wi-Fi works without it.
    }
  }

  return { url, svg, load };
});
