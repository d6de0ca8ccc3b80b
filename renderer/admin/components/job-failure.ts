import type { CaptureJobFailure } from '../../../server/contract/capture.contract.js';
import { formatDate } from '../../shared/i18n/dates.js';
import { t, type Locale } from '../../shared/i18n/index.js';

/**
 * A failed guest's job in one sentence: which button, when, how many times in a row, and what
 * the guests did not get ("« Vidéo » (Vidéo) a échoué 2 fois de suite, la dernière à 14:02 : les
 * invités qui appuient sur ce bouton n’ont pas leur vidéo.").
 */
export function jobFailureSentence(f: CaptureJobFailure, locale: Locale): string {
  const kind = f.trigger.kind;
  const params = {
    action: f.title ?? f.name ?? t(`actions.kind.${kind}`),
    kind: t(`actions.kind.${kind}`),
    time: formatDate(f.at, locale, 'time'),
    count: f.in_a_row,
  };
  return f.in_a_row > 1
    ? t('jobs.failed.other', { ...params, result: t(`jobs.lost.guests.${kind}`) })
    : t('jobs.failed.one', { ...params, result: t(`jobs.lost.guest.${kind}`) });
}
