import { defineStore } from 'pinia';
import { ref } from 'vue';
import type {
  DestinationInput,
  EventPublication,
  PublishLogo,
  PublishNotice,
  PublishOverview,
  PublishSettings,
  PublishSettingsPatch,
  PublishTestResult,
} from '../../../server/contract/publish.contract.js';
import { publishService } from '../services/publish.service.js';

export const usePublishStore = defineStore('publish', () => {
  const settings = ref<PublishSettings | null>(null);
  const configPath = ref('');
  /** Why the stored destination was set aside, said once the console loads. */
  const notice = ref<PublishNotice | null>(null);
  const overview = ref<PublishOverview | null>(null);
  const logo = ref<PublishLogo | null>(null);
  const testResult = ref<PublishTestResult | null>(null);

  async function loadSettings(): Promise<void> {
    const res = await publishService.settings();
    settings.value = res.settings;
    configPath.value = res.config_path;
    notice.value = res.notice;
    logo.value = res.logo;
  }

  async function setLogo(data: string): Promise<void> {
    logo.value = (await publishService.setLogo(data)).logo;
  }

  async function clearLogo(): Promise<void> {
    logo.value = (await publishService.clearLogo()).logo;
  }

  async function refresh(): Promise<void> {
    overview.value = await publishService.overview();
  }

  async function save(patch: PublishSettingsPatch): Promise<void> {
    const res = await publishService.save(patch);
    settings.value = res.settings;
    notice.value = res.notice;
    testResult.value = null;
    await refresh();
  }

  async function test(destination?: DestinationInput): Promise<PublishTestResult> {
    testResult.value = null;
    testResult.value = await publishService.test(destination);
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

  async function setExpiry(slug: string, expiresOn: string | null): Promise<void> {
    await publishService.setExpiry(slug, expiresOn);
    await refresh();
  }

  async function setPassword(slug: string, password: string | null): Promise<void> {
    await publishService.setPassword(slug, password);
    await refresh();
  }

  async function forgetLeftover(id: number): Promise<void> {
    await publishService.forgetLeftover(id);
    await refresh();
  }

  const of = (slug: string): EventPublication | undefined => overview.value?.events.find((e) => e.slug === slug);

  return {
    settings,
    configPath,
    notice,
    overview,
    logo,
    setLogo,
    clearLogo,
    testResult,
    loadSettings,
    refresh,
    save,
    test,
    publish,
    withdraw,
    setExpiry,
    setPassword,
    forgetLeftover,
    of,
  };
});
