// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { formatNumber, setLocale, t } from '../../renderer/shared/i18n/index.js';

describe('counts read as sentences, in each language', () => {
  afterEach(() => setLocale('fr'));

  it('French: zero and one are singular, more is plural', () => {
    setLocale('fr');
    expect(t('events.photos', { count: 0 })).toBe('0\u00a0photo');
    expect(t('events.photos', { count: 1 })).toBe('1\u00a0photo');
    expect(t('events.photos', { count: 3 })).toBe('3\u00a0photos');
    expect(t('printAdmin.sent', { count: 2 })).toBe('2\u00a0copies envoyées à l’imprimante.');
    expect(t('print.remaining', { count: 1, quota: 5 })).toBe('Il vous reste 1\u00a0impression sur 5.');
  });

  it('English: only one is singular', () => {
    setLocale('en');
    expect(t('events.photos', { count: 0 })).toBe('0 photos');
    expect(t('events.photos', { count: 1 })).toBe('1 photo');
    expect(t('print.error.quota', { count: 1 })).toBe('You only have 1 print left.');
  });

  it('a wait, a restored backup and the photos left agree with their numbers, written as the language writes them', () => {
    setLocale('fr');
    expect(t('restartConfirm.body', { event: 'Gala', seconds: 1 })).toContain('environ 1\u00a0seconde.');
    expect(t('dash.backup.restored', { actions: 5, presets: 1 })).toBe('Sauvegarde restaurée\u00a0: 5\u00a0actions et 1\u00a0préréglage.');
    expect(t('dash.disk.photosLeft', { count: 12345 })).toBe('Environ 12\u202f345\u00a0photos possibles');
    expect(t('hw.flash.preflashTooLate', { value: '0,0' })).toContain('0,2\u00a0s avant la fin');
    setLocale('en');
    expect(t('restartConfirm.body', { event: 'Gala', seconds: 1 })).toContain('about 1 second.');
    expect(t('dash.backup.restored', { actions: 1, presets: 2 })).toBe('Backup restored: 1 action and 2 presets.');
    expect(t('dash.disk.photosLeft', { count: 12345 })).toBe('About 12,345 more photos');
  });

  it('no message in either language says "(s)", "(ies)", "(x)" or "(es)"', async () => {
    const { fr } = await import('../../renderer/shared/i18n/fr.js');
    const { en } = await import('../../renderer/shared/i18n/en.js');
    const lazy = [...Object.entries(fr), ...Object.entries(en)].filter(([, text]) => /\w\((?:s|ies|x|es)\)/.test(text)).map(([key]) => key);
    expect(lazy).toEqual([]);
  });

  it('no French message writes a decimal point, and every count that names a thing agrees with it', async () => {
    const { fr } = await import('../../renderer/shared/i18n/fr.js');
    const { en } = await import('../../renderer/shared/i18n/en.js');
    expect(
      Object.entries(fr)
        // Version numbers (1.2.3) and device paths (/dev/spidev0.0) are names, not decimals.
        .filter(([, text]) => /\d\.\d/.test(text.replace(/\d+(?:\.\d+){2,}/g, '').replace(/\/[\w./-]+/g, '')))
        .map(([key]) => key),
    ).toEqual([]);
    // "{count} photos" without a plural form reads "1 photos": a number placeholder followed by a
    // plural noun must come with its {count:…|…} choice.
    const bare = (text: string): boolean =>
      [...text.matchAll(/\{(count|n|total|done|max|remaining)\} (\p{L}+)/gu)].some(
        ([, name, word]) =>
          !text.includes(`{${name}:`) && word!.length > 2 && /s$/.test(word!) && !/^(sur|sous|dans|plus|moins|fois|jours)$/.test(word!),
      );
    // Keys named for the plural form (".other", ".more") are chosen by the caller for counts above one.
    const lazy = [...Object.entries(fr), ...Object.entries(en)]
      .filter(([key, text]) => !/\.(other|more)$/.test(key) && bare(text))
      .map(([key]) => key);
    expect(lazy).toEqual([]);
  });

  it('decimals are written the French way: a comma', () => {
    setLocale('fr');
    expect(formatNumber(14.7, 1)).toBe('14,7');
    expect(formatNumber(0.2, 1)).toBe('0,2');
    expect(formatNumber(3, 1)).toBe('3,0');
    setLocale('en');
    expect(formatNumber(14.7, 1)).toBe('14.7');
  });
});

describe('the guests’ page follows the phone’s language', () => {
  it('takes the first language Boothdeck speaks, in the phone’s order', async () => {
    const { browserLocale } = await import('../../renderer/shared/i18n/index.js');
    expect(browserLocale(['en-US', 'fr-FR'])).toBe('en');
    expect(browserLocale(['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(browserLocale(['de-DE'])).toBeNull();
  });
});
