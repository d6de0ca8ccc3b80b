// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { PrinterStatus } from '../../server/contract/print.contract.js';
import { reasonSentences, stateSentence, todoSentence } from '../../renderer/admin/components/print/printer-words.js';
import { setLocale } from '../../renderer/shared/i18n/index.js';

const status = (s: Partial<PrinterStatus>): PrinterStatus => ({
  name: 'DNP',
  state: 'idle',
  reasons: [],
  message: '',
  pause: null,
  supplies: [],
  ...s,
});

describe('the printer in words', () => {
  it('says each CUPS reason as a sentence, and anything unknown as one generic sentence, never the raw keyword', () => {
    const words = reasonSentences(
      status({
        reasons: ['media-empty-error', 'marker-supply-low-warning', 'com.dnp-ribbon-error', 'x-vendor-thing-report', 'paused'],
      }),
    );
    expect(words).toEqual([
      'Le papier est épuisé.',
      'Il reste peu d’encre ou de ruban.',
      'L’imprimante signale un problème.',
      'L’imprimante a été mise en pause dans le système d’impression.',
    ]);
    expect(words.join(' ')).not.toMatch(/com\.dnp|media-empty|x-vendor/);
  });

  it('gives the state and what to do, including a chosen printer CUPS no longer knows', () => {
    expect(stateSentence(status({ state: 'stopped', reasons: ['paused'], pause: 'stopped' }))).toBe('En pause');
    expect(todoSentence(status({ pause: 'out_of_paper' }))).toBe('Remettez du papier : la file reprendra seule.');
    expect(stateSentence(status({ name: null, state: 'unknown', pause: 'no_printer' }))).toBe('Aucune imprimante choisie');
    expect(stateSentence(status({ state: 'unknown', pause: 'no_printer' }))).toBe('Inconnue du système d’impression');
    expect(stateSentence(status({}))).toBe('Prête à imprimer');
    expect(todoSentence(status({}))).toBeNull();
  });

  it('speaks English too', () => {
    setLocale('en');
    try {
      expect(reasonSentences(status({ reasons: ['door-open-error', 'vendor-x'] }))).toEqual([
        'A printer door is open.',
        'The printer reports a problem.',
      ]);
    } finally {
      setLocale('fr');
    }
  });
});
