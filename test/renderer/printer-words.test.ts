// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { PrinterStatus } from '../../server/contract/print.contract.js';
import {
  canResume,
  reasonSentences,
  resumeSentence,
  stateSentence,
  todoSentence,
} from '../../renderer/admin/components/print/printer-words.js';
import { setLocale } from '../../renderer/shared/i18n/index.js';
import { plain } from '../support/plain-spaces.js';

const status = (s: Partial<PrinterStatus>): PrinterStatus => ({
  name: 'DNP',
  state: 'idle',
  reasons: [],
  message: '',
  pause: null,
  supplies: [],
  accepting: true,
  error_policy: null,
  ...s,
});

describe('the printer in words', () => {
  it('says each CUPS reason as a sentence, and anything unknown as one generic sentence, never the raw keyword', () => {
    const words = reasonSentences(
      status({
        reasons: ['media-empty-error', 'marker-supply-low-warning', 'com.dnp-ribbon-error', 'x-vendor-thing-report', 'paused'],
      }),
    );
    expect(plain(words)).toEqual([
      'Le papier est épuisé.',
      'Il reste peu d’encre ou de ruban.',
      'L’imprimante signale un problème.',
      'L’imprimante a été mise en pause dans le système d’impression.',
    ]);
    expect(words.join(' ')).not.toMatch(/com\.dnp|media-empty|x-vendor/);
  });

  it('gives the state and what to do, including a chosen printer CUPS no longer knows', () => {
    expect(plain(stateSentence(status({ state: 'stopped', reasons: ['paused'], pause: 'stopped' })))).toBe('En pause');
    expect(plain(todoSentence(status({ pause: 'out_of_paper' })))).toBe('Remettez du papier : la file reprendra seule.');
    expect(plain(stateSentence(status({ name: null, state: 'unknown', pause: 'no_printer' })))).toBe('Aucune imprimante choisie');
    expect(plain(stateSentence(status({ state: 'unknown', pause: 'no_printer' })))).toBe('Inconnue du système d’impression');
    expect(plain(stateSentence(status({})))).toBe('Prête à imprimer');
    expect(todoSentence(status({}))).toBeNull();
  });

  it('offers to resume only a queue CUPS stopped or that refuses jobs, and says what resuming did', () => {
    const stopped = status({ state: 'stopped', reasons: ['paused'], pause: 'stopped' });
    expect(canResume(stopped)).toBe(true);
    expect(canResume(status({ accepting: false, pause: 'stopped' }))).toBe(true);
    // Paper out on an enabled queue resumes by itself: no button.
    expect(canResume(status({ reasons: ['media-empty-error'], pause: 'out_of_paper' }))).toBe(false);
    expect(canResume(status({ name: null, state: 'unknown', pause: 'no_printer' }))).toBe(false);
    // A stopped queue never resumes by itself, even when the printer also reports paper out.
    const stoppedOutOfPaper = status({ state: 'stopped', reasons: ['media-empty-error'], pause: 'out_of_paper' });
    expect(plain(todoSentence(stoppedOutOfPaper))).toBe(
      'Le système d’impression a arrêté la file : réglez le problème (papier, ruban, câble), puis touchez « Reprendre l’impression ».',
    );
    expect(plain(resumeSentence({ outcome: 'resumed', printer: status({}), message: '' }))).toBe(
      'L’impression a repris : les photos en attente sortent dans l’ordre.',
    );
    expect(plain(resumeSentence({ outcome: 'still_paused', printer: stopped, message: '' }))).toMatch(
      /^Le système d’impression a de nouveau arrêté l’imprimante/,
    );
    expect(
      plain(
        resumeSentence({
          outcome: 'still_paused',
          printer: status({ reasons: ['media-empty-error'], pause: 'out_of_paper' }),
          message: '',
        }),
      ),
    ).toBe('L’imprimante est relancée, mais elle signale toujours : plus de papier. Les photos attendent toujours.');
    expect(plain(resumeSentence({ outcome: 'not_stopped', printer: status({}), message: '' }))).toBe(
      'L’imprimante n’était pas arrêtée : il n’y avait rien à reprendre.',
    );
  });

  it('speaks English too', () => {
    setLocale('en');
    try {
      expect(plain(reasonSentences(status({ reasons: ['door-open-error', 'vendor-x'] })))).toEqual([
        'A printer door is open.',
        'The printer reports a problem.',
      ]);
    } finally {
      setLocale('fr');
    }
  });
});
