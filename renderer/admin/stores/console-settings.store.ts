import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { Settings } from '../../../server/contract/settings.contract.js';
import { ApiError } from '../../shared/http.js';
import { t, useI18n } from '../../shared/i18n/index.js';
import { notKeptSentence } from '../components/actions/not-kept.js';
import { describeError } from '../composables/useApiError.js';
import { useRestartConfirm } from '../composables/useRestartConfirm.js';
import { dashboardService } from '../services/dashboard.service.js';
import { backupProblems } from './backup-problems.js';
import { useNoticeStore } from './notice.store.js';

/** The dashboard's settings section (what has no other home) and the backup file. */
export const useConsoleSettingsStore = defineStore('console-settings', () => {
  const settings = ref<Settings | null>(null);
  const confirmRestart = useRestartConfirm();
  const loadError = ref<string | null>(null);
  const saving = ref(false);
  /** What was wrong with the last backup file, one line per fault. */
  const restoreProblems = ref<string[]>([]);
  const restoreError = ref<string | null>(null);
  /** What the last restore brought back, kept in the panel: a notice alone went before it was read. */
  const restoreDone = ref<string | null>(null);
  // A read (the page's first, a re-read after a cut) may answer after a save: what it says may be
  // older than what was saved, and must not bring the old address back on screen, nor into the
  // next save. Reads are numbered when asked, a save's answer when it arrives; older is dropped.
  let asked = 0;
  let shown = 0;

  async function load(): Promise<void> {
    const ticket = ++asked;
    try {
      const answer = await dashboardService.settings();
      if (ticket < shown) return;
      shown = ticket;
      settings.value = answer;
      loadError.value = null;
    } catch (err) {
      if (ticket >= shown) loadError.value = describeError(err);
    }
  }

  async function save(form: { show_delete: boolean; public_url: string | null }): Promise<boolean> {
    const before = settings.value;
    saving.value = true;
    try {
      const saved = await dashboardService.saveSettings({ gallery: form });
      shown = ++asked;
      settings.value = saved;
      const restarts = before !== null && before.gallery.show_delete !== form.show_delete;
      useNoticeStore().show('success', restarts ? t('dash.settings.savedRestart') : t('dash.settings.saved'));
      return true;
    } catch (err) {
      useNoticeStore().show('error', describeError(err));
      return false;
    } finally {
      saving.value = false;
    }
  }

  async function restore(file: File): Promise<void> {
    restoreProblems.value = [];
    restoreError.value = null;
    restoreDone.value = null;
    if (file.size > 4 * 1024 * 1024) {
      restoreError.value = t('dash.backup.tooLarge');
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await file.text()) as unknown;
    } catch {
      restoreError.value = t('dash.backup.notJson');
      return;
    }
    const question = {
      title: t('dash.confirm.restore.title'),
      body: t('dash.confirm.restore.body', { file: file.name }),
      confirmLabel: t('dash.backup.restore').replace('…', ''),
      danger: true,
    };
    // One question: during an event it also says that the capture app restarts.
    if (!(await confirmRestart(question, 'with'))) return;
    try {
      const answer = await dashboardService.restoreBackup(body);
      const notKept = answer.restored.not_kept ?? [];
      // A value the capture app dropped is named, never reported as restored.
      if (notKept.length > 0) useNoticeStore().show('error', notKeptSentence(useI18n().locale.value, notKept));
      else {
        restoreDone.value = t('dash.backup.restored', { actions: answer.restored.actions, presets: answer.restored.presets });
        useNoticeStore().show('success', restoreDone.value);
      }
      await load();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'validation_failed') {
        const { headline, problems } = backupProblems(err);
        restoreError.value = headline ?? t('dash.backup.invalid');
        restoreProblems.value = problems;
      } else if (err instanceof ApiError && err.status === 413) {
        restoreError.value = t('dash.backup.tooLarge');
      } else {
        restoreError.value = describeError(err);
      }
    }
  }

  return {
    settings,
    loadError,
    saving,
    restoreProblems,
    restoreError,
    restoreDone,
    load,
    save,
    restore,
    download: dashboardService.downloadBackup,
  };
});
