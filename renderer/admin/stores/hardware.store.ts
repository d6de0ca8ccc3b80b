import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { HardwareDiagnostic, LuxPoint } from '../../../server/contract/hardware.contract.js';
import type { HardwareSettings } from '../../../server/contract/settings.contract.js';
import { hardwareService } from '../services/hardware.service.js';

/** How much lux history the chart keeps. */
const HISTORY_MS = 5 * 60_000;

export const useHardwareStore = defineStore('hardware', () => {
  const settings = ref<HardwareSettings | null>(null);
  const diagnostic = ref<HardwareDiagnostic | null>(null);
  const samples = ref<LuxPoint[]>([]);
  const saving = ref(false);

  async function loadSettings(): Promise<void> {
    settings.value = await hardwareService.settings();
  }

  async function save(next: HardwareSettings): Promise<void> {
    saving.value = true;
    try {
      settings.value = await hardwareService.save(next);
    } finally {
      saving.value = false;
    }
  }

  /** Fetches the newest state; only samples newer than those held travel. */
  async function refresh(): Promise<void> {
    const last = samples.value.at(-1)?.t;
    const next = await hardwareService.diagnostic(last);
    const oldest = next.now - HISTORY_MS;
    samples.value = [...samples.value, ...next.lux.samples].filter((p) => p.t >= oldest);
    diagnostic.value = next;
  }

  const tests = {
    flashNow: () => hardwareService.flashNow(),
    relayPulse: () => hardwareService.relayPulse(1000),
    countdown: () => hardwareService.countdown(3),
    ledColor: (color: string) => hardwareService.ledColor(color),
  };

  return { settings, diagnostic, samples, saving, loadSettings, save, refresh, tests };
});
