import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { acceptedLanguage, guestLanguage } from '../../server/gallery/guest-language.js';
import { buildTestApp, signIn } from '../support/app.js';

const TEMPLATE = '<!doctype html><html lang="fr"><head><title>gallery</title></head><body><div id="app"></div></body></html>';

describe('the guest’s language, as the server reads it', () => {
  it('takes the first language of Accept-Language the page speaks, by quality then order', () => {
    expect(acceptedLanguage('en-US,en;q=0.9')).toBe('en');
    expect(acceptedLanguage('fr-FR,fr;q=0.9,en;q=0.8')).toBe('fr');
    expect(acceptedLanguage('de-DE,de;q=0.9,en;q=0.5,fr;q=0.8')).toBe('fr');
    expect(acceptedLanguage('fr;q=0, EN-gb')).toBe('en');
    expect(acceptedLanguage('de-DE')).toBeNull();
    expect(acceptedLanguage('de-DE,de;q=0.9')).toBeNull();
    expect(acceptedLanguage('')).toBeNull();
    expect(acceptedLanguage(undefined)).toBeNull();
    // What lies past a phone's longest header is not read.
    expect(acceptedLanguage(`${'de,'.repeat(300)}en`)).toBeNull();
  });

  it('puts the guest’s own choice before the phone’s, and ignores a choice it does not speak', () => {
    expect(guestLanguage('fr', 'en-US')).toBe('fr');
    expect(guestLanguage('en', 'fr-FR')).toBe('en');
    expect(guestLanguage('de', 'en-US')).toBe('en');
    expect(guestLanguage('<x>', 'de-DE')).toBeNull();
  });
});

describe('the gallery page is sent in the guest’s language', () => {
  async function booth() {
    const t = await buildTestApp();
    writeFileSync(path.join(t.rendererDir, 'gallery', 'index.html'), TEMPLATE);
    const cookie = await signIn(t.app);
    await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Soirée' });
    return t;
  }
  const root = (html: string): string => /<html[^>]*>/.exec(html)?.[0] ?? '';

  it('marks the page English for an en-US phone, and leaves it French, unmarked, for a de-DE one', async () => {
    const t = await booth();
    const en = await request(t.app).get('/').set('Accept-Language', 'en-US,en;q=0.9');
    expect(root(en.text)).toBe('<html lang="en" data-lang="en">');
    expect(en.headers['vary']).toMatch(/Accept-Language/);
    const de = await request(t.app).get('/').set('Accept-Language', 'de-DE,de;q=0.9');
    expect(root(de.text)).toBe('<html lang="fr">');
    const fr = await request(t.app).get('/').set('Accept-Language', 'fr-FR');
    expect(root(fr.text)).toBe('<html lang="fr" data-lang="fr">');
    // The same page again for the first phone: no language leaks from one guest's page to another's.
    expect(root((await request(t.app).get('/').set('Accept-Language', 'en-US')).text)).toBe('<html lang="en" data-lang="en">');
  });

  it('follows the guest’s choice (the switch’s cookie) over the phone’s language', async () => {
    const t = await booth();
    const chose = await request(t.app).get('/').set('Accept-Language', 'en-US').set('Cookie', 'bd_lang=fr');
    expect(root(chose.text)).toBe('<html lang="fr" data-lang="fr">');
    const odd = await request(t.app).get('/').set('Accept-Language', 'en-US').set('Cookie', 'bd_lang=%3Cx%3E');
    expect(root(odd.text)).toBe('<html lang="en" data-lang="en">');
  });
});
