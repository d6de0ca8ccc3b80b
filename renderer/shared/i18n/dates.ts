import type { Locale } from './index.js';

/** How a date reads: a tile's hour, a caption's short date and hour, a card's or an info panel's fuller one. */
export type DateStyle = 'time' | 'short' | 'medium' | 'full';

// 'day' is formatDay's alone: a calendar day has no hour to show.
type Style = DateStyle | 'day';

const OPTIONS: Record<Style, Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit' },
  short: { dateStyle: 'short', timeStyle: 'short' },
  medium: { dateStyle: 'medium', timeStyle: 'short' },
  full: { dateStyle: 'medium', timeStyle: 'medium' },
  day: { dateStyle: 'medium' },
};

const TAGS: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };

// `toLocaleString` with options builds a new formatter on every call: about half a millisecond
// each, which for the 200 tiles of a gallery's first page was a quarter of its first screen.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(locale: Locale, style: Style): Intl.DateTimeFormat {
  const key = `${locale}:${style}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(TAGS[locale], OPTIONS[style]);
    formatters.set(key, format);
  }
  return format;
}

/** `iso` written for a reader of `locale`, in `style`; formatters are made once per pair. */
export function formatDate(iso: string, locale: Locale, style: DateStyle): string {
  return formatterFor(locale, style).format(new Date(iso));
}

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
  return formatterFor(locale, 'day').format(date);
}
