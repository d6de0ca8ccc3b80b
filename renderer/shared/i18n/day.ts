import type { Locale } from './index.js';

const TAGS: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };
const formatters = new Map<Locale, Intl.DateTimeFormat>();

/**
 * A calendar day (`YYYY-MM-DD`, as a date input holds it) written for a reader of `locale`:
 * "25 nov. 2026", "25 Nov 2026"; never the browser's own "mm/dd/yyyy". '' for no day or a bad one.
 */
export function formatDay(day: string, locale: Locale): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return '';
  // The day itself, at local noon: no time zone moves it to the day before.
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12);
  if (Number.isNaN(date.getTime())) return '';
  let format = formatters.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(TAGS[locale], { dateStyle: 'medium' });
    formatters.set(locale, format);
  }
  return format.format(date);
}
