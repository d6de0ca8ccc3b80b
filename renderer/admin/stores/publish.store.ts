import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { EventPublication, PublishOverview, PublishSettings, PublishTestResult } from '../../../server/contract/publish.contract.js';
import { publishService } from '../services/publish.service.js';

export const usePublishStore = defineStore('publish', () => {
  const settings = ref<PublishSettings | null>(null);
  const configPath = ref('');
  const overview = ref<PublishOverview | null>(null);
  const testResult = ref<PublishTestResult | null>(null);

  async function loadSettings(): Promise<void> {
    const res = await publishService.settings();
    settings.value = res.settings;
    configPath.value = res.config_path;
  }

  async function refresh(): Promise<void> {
    overview.value = await publishService.overview();
  }

  async function save(patch: Partial<PublishSettings>): Promise<void> {
    const res = await publishService.save(patch);
    settings.value = res.settings;
    testResult.value = null;
    await refresh();
  }

  async function test(): Promise<PublishTestResult> {
    testResult.value = null;
    testResult.value = await publishService.test();
    return testResult.value;
  }

  async function publish(slug: string): Promise<void> {
    await publishService.publish(slug);
    await refresh();
  }

  async function withdraw(slug: string): Promise<void> {
    await publishService.withdraw(slug);
    await refresh();
  }

  const of = (slug: string): EventPublication | undefined => overview.value?.events.find((e) => e.slug === slug);

  return { settings, configPath, overview, testResult, loadSettings, refresh, save, test, publish, withdraw, of };
});
