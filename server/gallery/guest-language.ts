/** The languages the guests' page speaks. */
export type GuestLanguage = 'fr' | 'en';

/** Written by the page's language switch (renderer/shared/i18n): the guest's own choice. */
export const LANGUAGE_COOKIE = 'bd_lang';

/** Longer than any phone sends; what lies beyond is not read. */
const MAX_HEADER = 512;
const MAX_ENTRIES = 20;

const spoken = (tag: string): GuestLanguage | null => {
  const base = tag.trim().toLowerCase().split('-')[0];
  return base === 'fr' || base === 'en' ? base : null;
};

/**
 * The first language of an Accept-Language header that the page speaks, in the phone's order
 * (quality first, then as listed); null when it names none ("de-DE") or is absent.
 */
export function acceptedLanguage(header: string | undefined): GuestLanguage | null {
  if (!header) return null;
  const entries = header
    .slice(0, MAX_HEADER)
    .split(',')
    .slice(0, MAX_ENTRIES)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { language: spoken(tag), quality: q === undefined ? 1 : Number(q), index };
    })
    .filter((e) => e.language !== null && e.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return entries[0]?.language ?? null;
}

/**
 * The language of the guest's first page: the one they chose with the switch, else their
 * phone's (Accept-Language); null when neither says, and the page then asks the browser's own
 * list before falling back to French.
 */
export function guestLanguage(choice: string | undefined, acceptLanguage: string | undefined): GuestLanguage | null {
  if (choice === 'fr' || choice === 'en') return choice;
  return acceptedLanguage(acceptLanguage);
}
