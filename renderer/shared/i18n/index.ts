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

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = dictionaries[locale.value][key];
  const rules = pluralRules[locale.value];
  return text
    .replace(PLURAL, (whole, name: string, one: string, other: string) => {
      const value = params[name];
      if (typeof value !== 'number') return whole;
      return rules.select(value) === 'one' ? one : other;
    })
    .replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function setLocale(next: Locale): void {
  locale.value = next;
  globalThis.localStorage?.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
}

export function useI18n(): { t: typeof t; locale: Ref<Locale>; setLocale: typeof setLocale } {
  return { t, locale, setLocale };
}
