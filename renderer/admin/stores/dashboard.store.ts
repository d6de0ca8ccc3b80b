import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { DashboardStatus, LogEntry, LogLevel } from '../../../server/contract/dashboard.contract.js';
import { ApiError } from '../../shared/http.js';
import { t, type MessageKey } from '../../shared/i18n/index.js';
import { describeError } from '../composables/useApiError.js';
import { dashboardService, type MaintenanceButton } from '../services/dashboard.service.js';
import { useDialogStore } from './dialog.store.js';
import { useNoticeStore } from './notice.store.js';

/** The buttons this store runs itself; the capture app's restart has one path for the whole console (useCaptureRestart). */
type StoreButton = Exclude<MaintenanceButton, 'restart-capture-app'>;

const BUTTON_KEYS: Record<StoreButton, { confirm: string; result: MessageKey; failed: MessageKey; label: MessageKey }> = {
  'restart-boothdeck': {
    confirm: 'restartBoothdeck',
    result: 'dash.result.restartBoothdeck',
    failed: 'maint.failed.restartBoothdeck',
    label: 'dash.actions.restartBoothdeck',
  },
  reboot: { confirm: 'reboot', result: 'dash.result.reboot', failed: 'maint.failed.reboot', label: 'dash.actions.reboot' },
};

/** How long Boothdeck may take to come back after its restart, and how often the console looks. */
const BACK_WITHIN_MS = 120_000;
const LOOK_EVERY_MS = 1000;

export interface MaintenanceOutcome {
  ok: boolean;
  /** A sentence in the console's language. */
  text: string;
  /** The system's own words, shown only behind "Détails". */
  detail: string | null;
}

/** The maintenance page: status at a glance, the restart buttons, the log tail. */
export const useDashboardStore = defineStore('dashboard', () => {
  const status = ref<DashboardStatus | null>(null);
  const statusError = ref<string | null>(null);
  const updatedAt = ref<Date | null>(null);
  const logs = ref<LogEntry[]>([]);
  const logLevel = ref<LogLevel>('info');
  const running = ref<StoreButton | null>(null);
  /** The last button's outcome, kept on the page in plain words. */
  const result = ref<MaintenanceOutcome | null>(null);
  let watchingReturn = 0;

  async function loadStatus(): Promise<void> {
    try {
      status.value = await dashboardService.status();
      statusError.value = null;
      updatedAt.value = new Date();
    } catch (err) {
      statusError.value = describeError(err);
    }
  }

  async function loadLogs(): Promise<void> {
    try {
      logs.value = (await dashboardService.logs(logLevel.value)).lines.slice().reverse();
    } catch {
      /* the status card already says when the service is unreachable */
    }
  }

  async function setLogLevel(level: LogLevel): Promise<void> {
    logLevel.value = level;
    await loadLogs();
  }

  /** After "Restart Boothdeck": once a new Boothdeck answers, the page says so instead of "will reconnect". */
  async function followReturn(before: string | null): Promise<void> {
    const mine = ++watchingReturn;
    const until = Date.now() + BACK_WITHIN_MS;
    let wentAway = false;
    while (mine === watchingReturn && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
      try {
        const now = await dashboardService.status();
        if ((before !== null && now.started_at !== before) || wentAway) {
          result.value = { ok: true, text: t('maint.back.boothdeck'), detail: null };
          useNoticeStore().show('success', t('maint.back.boothdeck'));
          void loadStatus();
          return;
        }
      } catch {
        wentAway = true;
      }
    }
    if (mine === watchingReturn) result.value = { ok: false, text: t('maint.back.late'), detail: null };
  }

  async function press(button: StoreButton): Promise<void> {
    const keys = BUTTON_KEYS[button];
    const ok = await useDialogStore().confirm({
      title: t(`dash.confirm.${keys.confirm}.title` as MessageKey),
      body: t(`dash.confirm.${keys.confirm}.body` as MessageKey),
      confirmLabel: t(keys.label),
      danger: true,
    });
    if (!ok) return;
    running.value = button;
    const before = status.value?.started_at ?? null;
    try {
      await dashboardService.run(button);
      result.value = { ok: true, text: t(keys.result), detail: null };
      if (button === 'restart-boothdeck') void followReturn(before);
      else useNoticeStore().show('success', t(keys.result));
    } catch (err) {
      // The sentence says what failed; the command's own words wait behind "Détails".
      const technical = err instanceof ApiError && err.code === 'command_failed';
      result.value = { ok: false, text: technical ? t(keys.failed) : describeError(err), detail: technical ? err.message : null };
    } finally {
      running.value = null;
      void loadStatus();
      void loadLogs();
    }
  }

  return { status, statusError, updatedAt, logs, logLevel, running, result, loadStatus, loadLogs, setLogLevel, press };
});
