import type { PrinterResumeResult, PrinterStatus } from '../../../../server/contract/print.contract.js';
import { ApiError } from '../../../shared/http.js';
import { t, type MessageKey } from '../../../shared/i18n/index.js';

/** IPP/CUPS printer-state-reasons the console says in words (their -error/-warning/-report suffix dropped). */
const KNOWN = [
  'paused',
  'media-empty',
  'media-needed',
  'media-low',
  'media-jam',
  'marker-supply-low',
  'marker-supply-empty',
  'marker-waste-full',
  'toner-low',
  'toner-empty',
  'door-open',
  'cover-open',
  'input-tray-missing',
  'output-area-full',
  'offline',
  'connecting-to-device',
  'timed-out',
  'shutdown',
  'cups-missing-filter',
] as const;
type KnownReason = (typeof KNOWN)[number];

const isKnown = (word: string): word is KnownReason => (KNOWN as readonly string[]).includes(word);

/** A reason keyword as a sentence; anything not known is the generic one (its words stay in the details). */
export function reasonSentence(reason: string): string {
  const base = reason.replace(/-(error|warning|report)$/, '');
  const key: MessageKey = isKnown(base) ? `printer.reason.${base}` : 'printer.reason.other';
  return t(key);
}

/** Each reason once as a sentence, the generic one at most once. */
export function reasonSentences(status: PrinterStatus | null): string[] {
  if (!status) return [];
  return [...new Set(status.reasons.map(reasonSentence))];
}

/** The printer's state in a few words: what a glance needs. */
export function stateSentence(status: PrinterStatus | null): string {
  // A printer chosen by name that CUPS does not list (unplugged, removed).
  if (status?.pause === 'no_printer' && status.name) return t('printer.sentence.unknown_printer');
  if (!status || status.state === 'unknown') {
    return status?.pause === 'no_printer' ? t('printer.sentence.no_printer') : t('printer.sentence.unknown');
  }
  if (status.pause) return t(`printer.sentence.${status.pause}`);
  return status.state === 'printing' ? t('printer.sentence.printing') : t('printer.sentence.ready');
}

/**
 * CUPS stopped the queue in use (cupsdisable, its error policy) or refuses jobs for it: nothing
 * comes out until someone resumes it, which "Reprendre l'impression" does.
 */
export function canResume(status: PrinterStatus | null): boolean {
  return !!status?.name && status.pause !== 'no_printer' && (status.state === 'stopped' || !status.accepting);
}

/** What to do about it, or null when nothing is needed; `elsewhere` when the settings are not on screen. */
export function todoSentence(status: PrinterStatus | null, elsewhere = false): string | null {
  if (status?.pause === 'no_printer' && status.name) return t('printer.todo.unknown_printer');
  // A stopped queue never resumes by itself, whatever the printer reports besides.
  if (canResume(status)) return t('printer.todo.stoppedQueue');
  if (status?.pause === 'no_printer' && elsewhere) return t('printer.todo.no_printer_elsewhere');
  return status?.pause ? t(`printer.todo.${status.pause}`) : null;
}

/** CUPS's own words, for the Détails control only. */
export function rawWords(status: PrinterStatus | null): { reasons: string; message: string } {
  return { reasons: status?.reasons.join(', ') ?? '', message: status?.message ?? '' };
}

/** The printing refusals the operator can act on, in words; null for any other error. */
export function printRefusalText(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  if (err.code === 'no_printer') return t('printAdmin.noPrinter');
  if (err.code === 'no_photo') return t('printAdmin.noPhoto');
  return null;
}

/** What "Reprendre l'impression" did, in a sentence. */
export function resumeSentence(result: PrinterResumeResult): string {
  if (result.outcome === 'resumed') return t('printer.resumed.resumed');
  if (result.outcome === 'not_stopped') return t('printer.resumed.not_stopped');
  if (result.printer.pause === 'stopped') return t('printer.resumed.stopped_again');
  const reason = stateSentence(result.printer);
  return t('printer.resumed.still', { reason: reason.charAt(0).toLocaleLowerCase() + reason.slice(1) });
}
