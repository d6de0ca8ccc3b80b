import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { DashboardStatus, LogEntry, LogLevel } from '../../../server/contract/dashboard.contract.js';
import { ApiError } from '../../shared/http.js';
import { t, type MessageKey } from '../../shared/i18n/index.js';
import { describeError } from '../composables/useApiError.js';
import { dashboardService, type MaintenanceButton } from '../services/dashboard.service.js';
import { useDialogStore } from './dialog.store.js';
import { useNoticeStore } from './notice.store.js';

const BUTTON_KEYS: Record<MaintenanceButton, { confirm: string; result: MessageKey; label: MessageKey }> = {
  'restart-capture-app': { confirm: 'restartCapture', result: 'dash.result.restartCapture', label: 'dash.actions.restartCapture' },
  'restart-boothdeck': { confirm: 'restartBoothdeck', result: 'dash.result.restartBoothdeck', label: 'dash.actions.restartBoothdeck' },
  reboot: { confirm: 'reboot', result: 'dash.result.reboot', label: 'dash.actions.reboot' },
};

/** The maintenance page: status at a glance, the restart buttons, the log tail. */
export const useDashboardStore = defineStore('dashboard', () => {
  const status = ref<DashboardStatus | null>(null);
  const statusError = ref<string | null>(null);
  const updatedAt = ref<Date | null>(null);
  const logs = ref<LogEntry[]>([]);
  const logLevel = ref<LogLevel>('info');
  const running = ref<MaintenanceButton | null>(null);
  /** The last button's outcome, kept on the page in plain words. */
  const result = ref<{ ok: boolean; text: string } | null>(null);

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

  async function press(button: MaintenanceButton): Promise<void> {
    const keys = BUTTON_KEYS[button];
    const ok = await useDialogStore().confirm({
      title: t(`dash.confirm.${keys.confirm}.title` as MessageKey),
      body: t(`dash.confirm.${keys.confirm}.body` as MessageKey),
      confirmLabel: t(keys.label),
      danger: true,
    });
    if (!ok) return;
    running.value = button;
    try {
      await dashboardService.run(button);
      result.value = { ok: true, text: t(keys.result) };
      useNoticeStore().show('success', t(keys.result));
    } catch (err) {
      const detail = err instanceof ApiError && err.code === 'command_failed' ? err.message : describeError(err);
      result.value = { ok: false, text: t('dash.result.failed', { detail }) };
    } finally {
      running.value = null;
      void loadStatus();
      void loadLogs();
    }
  }

  return { status, statusError, updatedAt, logs, logLevel, running, result, loadStatus, loadLogs, setLogLevel, press };
});
