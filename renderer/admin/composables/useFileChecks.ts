import type { UserFile } from '../../../server/contract/actions.contract.js';
import { issueSentence } from '../../shared/error-text.js';
import { useI18n } from '../../shared/i18n/index.js';
import { useDialogStore } from '../stores/dialog.store.js';
import type { ActionForm } from './useActionForm.js';

/**
 * Checks the frame and background files before a save: a typed path must name one of the booth's
 * files, and an opaque image as a frame (it would hide the guests) needs the operator's word.
 * Resolves to an error sentence that stops the save, or null to go on.
 */
export function useFileChecks(): (form: ActionForm, files: readonly UserFile[], index: number) => Promise<string | null | false> {
  const dialog = useDialogStore();
  const { t } = useI18n();
  return async (form, files, index) => {
    if (files.length > 0) {
      const known = new Set(files.map((f) => f.path));
      for (const field of ['frame', 'background'] as const) {
        const group = form[field];
        if (group?.enabled && group.file && !known.has(group.file)) {
          return issueSentence({ field: `${field}.file`, reason: 'file_missing', index });
        }
      }
    }
    const frame = form.frame?.enabled && form.frame.file ? files.find((f) => f.path === form.frame?.file) : undefined;
    if (frame?.transparent === false) {
      const ok = await dialog.confirm({
        title: t('files.confirmOpaque.title'),
        body: t('files.confirmOpaque.body'),
        confirmLabel: t('files.confirmOpaque.go'),
        danger: true,
      });
      if (!ok) return false;
    }
    return null;
  };
}
