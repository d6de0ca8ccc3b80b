import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { BoothEvent } from '../../../server/contract/events.contract.js';
import { eventsService } from '../services/events.service.js';

export const useEventsStore = defineStore('events', () => {
  const events = ref<BoothEvent[]>([]);
  const currentSlug = ref<string | null>(null);
  const loaded = ref(false);

  async function load(): Promise<void> {
    const res = await eventsService.list();
    events.value = res.events;
    currentSlug.value = res.current_slug;
    loaded.value = true;
  }

  async function create(name: string, slug: string | undefined, welcome = ''): Promise<BoothEvent> {
    const { event } = await eventsService.create(name, slug, welcome);
    await load();
    return event;
  }

  async function reopen(slug: string): Promise<BoothEvent> {
    const { event } = await eventsService.reopen(slug);
    await load();
    return event;
  }

  const current = computed(() => events.value.find((e) => e.current) ?? null);

  return { events, currentSlug, current, loaded, load, create, reopen };
});
