// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { fr } from '../../renderer/shared/i18n/fr.js';
import { setLocale, t, type MessageKey } from '../../renderer/shared/i18n/index.js';
import { breakingSpaces } from '../support/french-typography.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';

/** Every placeholder of a message, given a number (the case where units follow). */
function sampleParams(text: string): Record<string, number> {
  return Object.fromEntries([...text.matchAll(/\{(\w+)[}:]/g)].map((m) => [m[1]!, 14.5]));
}

describe('French words keep together as French typography sets them', () => {
  afterEach(() => setLocale('fr'));

  it('every French message, as the console shows it: « » and the colon, ? ! ; and units never wrap away', () => {
    setLocale('fr');
    const problems = (Object.keys(fr) as MessageKey[]).flatMap((key) =>
      breakingSpaces(t(key, sampleParams(fr[key]))).map((p) => `${key}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('with the narrow space inside « » and before ? and the plain no-break space before : and units', () => {
    setLocale('fr');
    expect(t('actions.confirmDelete.body', { name: 'Photo' })).toBe(`«${NNBSP}Photo${NNBSP}» sera retirée de la borne.`);
    expect(t('actions.confirmDelete.title')).toBe(`Supprimer l’action${NNBSP}?`);
    expect(t('hw.diag.relayLimits', { max: 2, duty: 10, window: 60, budget: 14.5 })).toBe(
      `Limites${NBSP}: 2${NBSP}s par photo, 10${NBSP}s par 60${NBSP}s (reste 14,5${NBSP}s)`,
    );
    // What the operator typed is shown as typed: only the message's own spaces change.
    expect(t('actions.confirmDelete.body', { name: 'Photo 2 : cadre' })).toBe(
      `«${NNBSP}Photo 2 : cadre${NNBSP}» sera retirée de la borne.`,
    );
  });

  it('leaves English as English writes it', () => {
    setLocale('en');
    expect(t('dash.backup.restored', { actions: 1, presets: 2 })).toBe('Backup restored: 1 action and 2 presets.');
  });
});
