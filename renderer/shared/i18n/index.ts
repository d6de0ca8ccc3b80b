import { ref, type Ref } from 'vue';
import { en } from './en.js';
import { fr, type MessageKey } from './fr.js';

export type Locale = 'fr' | 'en';
export type { MessageKey };

const STORAGE_KEY = 'boothdeck.locale';
const dictionaries: Record<Locale, Record<MessageKey, string>> = { fr, en };

function initialLocale(): Locale {
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  return stored === 'en' || stored === 'fr' ? stored : 'fr';
}

/** One reactive locale for the whole page: templates that call `t` re-render when it changes. */
const locale: Ref<Locale> = ref(initialLocale());

/** `{count:photo|photos}` picks the singular or the plural by the language's own rules (French: 0 and 1 are singular). */
const PLURAL = /\{(\w+):([^|{}]*)\|([^{}]*)\}/g;

const pluralRules: Record<Locale, Intl.PluralRules> = { fr: new Intl.PluralRules('fr'), en: new Intl.PluralRules('en') };
/** Numbers read as the language writes them: "1 234", "0,2" in French. */
const numbers: Record<Locale, Intl.NumberFormat> = {
  fr: new Intl.NumberFormat('fr', { maximumFractionDigits: 2 }),
  en: new Intl.NumberFormat('en', { maximumFractionDigits: 2 }),
};

/** U+00A0: the space that never breaks, before a French colon and between a number and its unit. */
const NBSP = '\u00a0';
/** U+202F: the narrow one, inside « » and before ; ! ? as French typography sets them. */
const NNBSP = '\u202f';

/**
 * A French message with the spaces French typography keeps on one line: « and » never wrap away
 * from their words, nor a colon, a question mark or a unit from what comes before it. Done here,
 * once per message, so that no message file has to be typed with invisible characters.
 */
function frenchSpaces(text: string): string {
  return text
    .replace(/ :/g, `${NBSP}:`)
    .replace(/ ([;!?»])/g, `${NNBSP}$1`)
    .replace(/« /g, `«${NNBSP}`)
    .replace(/(\d) (?=[\p{L}%°])/gu, `$1${NBSP}`);
}
const frenchTexts = new Map<MessageKey, string>();

function messageText(key: MessageKey): string {
  if (locale.value !== 'fr') return dictionaries[locale.value][key];
  let text = frenchTexts.get(key);
  if (text === undefined) {
    text = frenchSpaces(dictionaries.fr[key]);
    frenchTexts.set(key, text);
  }
  return text;
}

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = messageText(key);
  const rules = pluralRules[locale.value];
  return text
    .replace(PLURAL, (whole, name: string, one: string, other: string) => {
      const value = params[name];
      if (typeof value !== 'number') return whole;
      return rules.select(value) === 'one' ? one : other;
    })
    .replace(/\{(\w+)\}( ?)/g, (whole, name: string, space: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      const text = typeof value === 'number' ? numbers[locale.value].format(value) : value;
      // A number keeps its unit or its noun on its line: "14,5 s", "3 photos", "2 h 05 min".
      return text + (space && locale.value === 'fr' && /\d$/.test(text) ? NBSP : space);
    });
}

/** A number with exactly `digits` decimals, as the console's language writes it ("14,7" in French). */
export function formatNumber(value: number, digits: number): string {
  return new Intl.NumberFormat(locale.value, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** The first of the browser's languages Boothdeck speaks, or null: a phone set to en-US reads English. */
export function browserLocale(languages: readonly string[] = globalThis.navigator?.languages ?? []): Locale | null {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'fr' || base === 'en') return base;
  }
  return null;
}

/** The guest's choice, for the server to send their next page in it (server/gallery/guest-language.ts). */
const CHOICE_COOKIE = 'bd_lang';
const YEAR_S = 365 * 24 * 3600;
/** Set on the guests' page: a choice there is also told to the server. */
let guestPage = false;

function tellServer(choice: Locale): void {
  document.cookie = `${CHOICE_COOKIE}=${choice}; Path=/; Max-Age=${YEAR_S}; SameSite=Lax`;
}

/**
 * The guests' page follows the phone's language until the guest chooses one with the switch
 * (which is remembered, here and for the server). The server already chose from the guest's
 * choice or the phone's Accept-Language (`data-lang` on the page's root, with its `lang`);
 * without it, the browser's own list decides, then French. The console stays French first
 * whatever the kiosk's browser says.
 */
export function followBrowserLanguage(): void {
  guestPage = true;
  const root = document.documentElement;
  const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'fr') {
    // A choice made before the server could be told: it is, for the next page.
    if (root.dataset.lang !== stored) tellServer(stored);
  } else {
    const server = root.dataset.lang;
    const wanted = server === 'fr' || server === 'en' ? server : browserLocale();
    if (wanted) locale.value = wanted;
  }
  root.lang = locale.value;
  document.title = t('gallery.documentTitle');
}

export function setLocale(next: Locale): void {
  locale.value = next;
  globalThis.localStorage?.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  if (guestPage) {
    tellServer(next);
    document.title = t('gallery.documentTitle');
  }
}

export function useI18n(): { t: typeof t; locale: Ref<Locale>; setLocale: typeof setLocale } {
  return { t, locale, setLocale };
}
