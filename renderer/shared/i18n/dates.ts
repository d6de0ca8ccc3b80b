import type { Locale } from './index.js';

/** How a date reads: a tile's hour, a caption's short date and hour, a card's or an info panel's fuller one. */
export type DateStyle = 'time' | 'short' | 'medium' | 'full';

const OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit' },
  short: { dateStyle: 'short', timeStyle: 'short' },
  medium: { dateStyle: 'medium', timeStyle: 'short' },
  full: { dateStyle: 'medium', timeStyle: 'medium' },
};

const TAGS: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };

// `toLocaleString` with options builds a new formatter on every call: about half a millisecond
// each, which for the 200 tiles of a gallery's first page was a quarter of its first screen.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `iso` written for a reader of `locale`, in `style`; formatters are made once per pair. */
export function formatDate(iso: string, locale: Locale, style: DateStyle): string {
  const key = `${locale}:${style}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(TAGS[locale], OPTIONS[style]);
    formatters.set(key, format);
  }
  return format.format(new Date(iso));
}
