// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick, ref } from 'vue';
import type { Settings } from '../../server/contract/settings.contract.js';
import { useFollowedField } from '../../renderer/admin/composables/useFollowedField.js';
import { dashboardService } from '../../renderer/admin/services/dashboard.service.js';
import { useConsoleSettingsStore } from '../../renderer/admin/stores/console-settings.store.js';
import { defaultSettings } from '../../server/settings/settings.schema.js';

vi.mock('../../renderer/admin/services/dashboard.service.js', () => ({
  dashboardService: { settings: vi.fn(), saveSettings: vi.fn() },
}));

const held = (publicUrl: string | null, showDelete = true): Settings => ({
  ...structuredClone(defaultSettings),
  gallery: { ...defaultSettings.gallery, public_url: publicUrl, show_delete: showDelete },
});

/** A read whose answer the test hands back when it chooses, as a server busy with a restart would. */
function slowRead(): (answer: Settings) => void {
  let answer: ((s: Settings) => void) | undefined;
  vi.mocked(dashboardService.settings).mockImplementationOnce(() => new Promise<Settings>((resolve) => (answer = resolve)));
  return (s) => answer?.(s);
}

describe('the Maintenance settings, read in the background', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(dashboardService.settings).mockReset();
    vi.mocked(dashboardService.saveSettings).mockReset();
  });

  it('a read asked before a save never brings the old address back once the save has answered', async () => {
    const store = useConsoleSettingsStore();
    vi.mocked(dashboardService.settings).mockResolvedValueOnce(held(null));
    await store.load();
    // The re-read after the capture app's restart goes out; the operator saves the address; the
    // re-read, answered by the server before the save, arrives last.
    const answer = slowRead();
    const reread = store.load();
    vi.mocked(dashboardService.saveSettings).mockResolvedValueOnce(held('http://photos.example'));
    await store.save({ show_delete: true, public_url: 'http://photos.example' });
    answer(held(null));
    await reread;
    expect(store.settings?.gallery.public_url).toBe('http://photos.example');
  });

  it('of two reads that answer out of order, the newer one stays', async () => {
    const store = useConsoleSettingsStore();
    const older = slowRead();
    const first = store.load();
    vi.mocked(dashboardService.settings).mockResolvedValueOnce(held('http://new.example'));
    await store.load();
    older(held('http://old.example'));
    await first;
    expect(store.settings?.gallery.public_url).toBe('http://new.example');
  });
});

describe('a settings field followed from what the service holds', () => {
  beforeEach(() => setActivePinia(createPinia()));

  async function form() {
    const store = useConsoleSettingsStore();
    const publicUrl = ref('');
    useFollowedField(
      publicUrl,
      () => store.settings,
      (s) => s.gallery.public_url ?? '',
      (typed, kept) => typed.trim() === kept,
    );
    vi.mocked(dashboardService.settings).mockResolvedValueOnce(held('http://old.example'));
    await store.load();
    await nextTick();
    return { store, publicUrl };
  }

  it('shows the address read, then a newer one while the operator has not touched it', async () => {
    const { store, publicUrl } = await form();
    expect(publicUrl.value).toBe('http://old.example');
    vi.mocked(dashboardService.settings).mockResolvedValueOnce(held('http://other.example'));
    await store.load();
    await nextTick();
    expect(publicUrl.value).toBe('http://other.example');
  });

  it('keeps what the operator is typing when a re-read answers meanwhile', async () => {
    const { store, publicUrl } = await form();
    const answer = slowRead();
    const reread = store.load();
    publicUrl.value = 'http://photos.exa';
    answer(held('http://old.example'));
    await reread;
    await nextTick();
    expect(publicUrl.value).toBe('http://photos.exa');
  });

  it('after a save, shows what was saved, and what was typed during the save stays', async () => {
    const { store, publicUrl } = await form();
    publicUrl.value = 'http://photos.example';
    vi.mocked(dashboardService.saveSettings).mockResolvedValueOnce(held('http://photos.example'));
    await store.save({ show_delete: true, public_url: 'http://photos.example' });
    await nextTick();
    expect(publicUrl.value).toBe('http://photos.example');

    let saved: ((s: Settings) => void) | undefined;
    vi.mocked(dashboardService.saveSettings).mockImplementationOnce(() => new Promise<Settings>((resolve) => (saved = resolve)));
    const saving = store.save({ show_delete: true, public_url: 'http://second.example' });
    publicUrl.value = 'http://third.exa';
    saved?.(held('http://second.example'));
    await saving;
    await nextTick();
    expect(publicUrl.value).toBe('http://third.exa');
  });
});
