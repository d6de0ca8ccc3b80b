// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale, t } from '../../renderer/shared/i18n/index.js';

describe('counts read as sentences, in each language', () => {
  afterEach(() => setLocale('fr'));

  it('French: zero and one are singular, more is plural', () => {
    setLocale('fr');
    expect(t('events.photos', { count: 0 })).toBe('0 photo');
    expect(t('events.photos', { count: 1 })).toBe('1 photo');
    expect(t('events.photos', { count: 3 })).toBe('3 photos');
    expect(t('printAdmin.sent', { count: 2 })).toBe('2 copies envoyées à l’imprimante.');
    expect(t('print.remaining', { count: 1, quota: 5 })).toBe('Il vous reste 1 impression sur 5.');
  });

  it('English: only one is singular', () => {
    setLocale('en');
    expect(t('events.photos', { count: 0 })).toBe('0 photos');
    expect(t('events.photos', { count: 1 })).toBe('1 photo');
    expect(t('print.error.quota', { count: 1 })).toBe('You only have 1 print left.');
  });

  it('a wait, a restored backup and the photos left agree with their numbers, written as the language writes them', () => {
    setLocale('fr');
    expect(t('restartConfirm.body', { event: 'Gala', seconds: 1 })).toContain('environ 1 seconde.');
    expect(t('dash.backup.restored', { actions: 5, presets: 1 })).toBe('Sauvegarde restaurée : 5 actions et 1 préréglage.');
    expect(t('dash.disk.photosLeft', { count: 12345 })).toBe('Environ 12\u202f345 photos possibles');
    expect(t('hw.flash.preflashTooLate', { value: '0,0' })).toContain('0,2 s avant la fin');
    setLocale('en');
    expect(t('restartConfirm.body', { event: 'Gala', seconds: 1 })).toContain('about 1 second.');
    expect(t('dash.backup.restored', { actions: 1, presets: 2 })).toBe('Backup restored: 1 action and 2 presets.');
    expect(t('dash.disk.photosLeft', { count: 12345 })).toBe('About 12,345 more photos');
  });

  it('no message in either language still says "(s)"', async () => {
    const { fr } = await import('../../renderer/shared/i18n/fr.js');
    const { en } = await import('../../renderer/shared/i18n/en.js');
    const lazy = [...Object.entries(fr), ...Object.entries(en)].filter(([, text]) => text.includes('(s)')).map(([key]) => key);
    expect(lazy).toEqual([]);
  });
});
