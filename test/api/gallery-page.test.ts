import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import type { GalleryFirstPage } from '../../server/gallery/gallery-shell.js';
import { buildTestApp, signIn } from '../support/app.js';

const BOOT = 'window.__booted = true;';
/** The gallery page as the build writes it: its boot script inline, the app's mount point empty. */
const TEMPLATE = `<!doctype html><html lang="fr"><head><title>gallery</title></head><body><div id="app"></div><script data-app="/assets/gallery-abc.js">${BOOT}</script></body></html>`;

const item = (n: number): MediaItem => {
  const minute = String(Math.floor(n / 60)).padStart(2, '0');
  const second = String(n % 60).padStart(2, '0');
  return {
    id: `9b1e6a80-0000-4000-8000-${String(n).padStart(12, '0')}`,
    media_type: 'image',
    created_at: `2026-11-22T12:${minute}:${second}`,
    updated_at: `2026-11-22T12:${minute}:${second}`,
    processed: `media/processed_full/20261122-12${minute}${second}-000000.jpg`,
    show_in_gallery: true,
  };
};

/** A booth with an event named `eventName` (and its welcome line) and `count` processed photos, its gallery page built as TEMPLATE. */
async function booth(eventName: string | null, count: number, welcome?: string) {
  const captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
  mkdirSync(path.join(captureDataDir, 'media', 'processed_full'), { recursive: true });
  const t = await buildTestApp({ capture: new FakeCaptureApp(), captureDataDir });
  writeFileSync(path.join(t.rendererDir, 'gallery', 'index.html'), TEMPLATE);
  const cookie = await signIn(t.app);
  if (eventName !== null) await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: eventName, welcome });
  for (let n = 1; n <= count; n++) {
    writeFileSync(path.join(captureDataDir, item(n).processed), 'jpeg');
    await t.services.indexer.handle({ event: 'DbInsert', data: item(n) });
  }
  return { ...t, cookie, captureDataDir, cleanup: () => rmSync(captureDataDir, { recursive: true, force: true }) };
}

const inlinePage = (html: string): GalleryFirstPage => {
  const json = /<script type="application\/json" id="boothdeck-first-page">([^<]*)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error('no first page in the page');
  return JSON.parse(json) as GalleryFirstPage;
};
const tileIds = (html: string): string[] =>
  [...html.matchAll(/data-testid="photo-tile" data-photo-id="([^"]+)"/g)].map((m) => m[1] as string);

describe('the public gallery page comes with its first screen', () => {
  it('holds the newest 72 photos, drawn as tiles and as the same page the API gives, the first 36 thumbnails named', async () => {
    const t = await booth('Mariage de Léa', 80);
    try {
      const res = await request(t.app).get('/');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      const html = res.text;
      const api = (await request(t.app).get('/api/gallery/photos?limit=72')).body as GalleryFirstPage;
      const page = inlinePage(html);
      expect(page).toEqual(api);
      expect(page.photos).toHaveLength(72);
      expect(page.event?.name).toBe('Mariage de Léa');
      expect(page.next_cursor).not.toBeNull();
      // Newest first, as the app will draw them.
      expect(tileIds(html)).toEqual(api.photos.map((p) => p.id));
      expect(tileIds(html)[0]).toBe(item(80).id);
      expect(html).toContain('<h1>Mariage de Léa</h1>');

      const named = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
      const later = [...html.matchAll(/<img data-src="([^"]+)"/g)].map((m) => m[1]);
      expect(named).toEqual(api.photos.slice(0, 36).map((p) => p.urls.thumb));
      expect(later).toEqual(api.photos.slice(36).map((p) => p.urls.thumb));
      expect(html.match(/fetchpriority="high"/g)).toHaveLength(27);
      // The boot script, after the data it reads.
      expect(html.indexOf(BOOT)).toBeGreaterThan(html.indexOf('boothdeck-first-page'));
    } finally {
      t.cleanup();
    }
  });

  it('never lets an event name or welcome line out of its text, in the markup or in the data', async () => {
    const name = '</script><script>alert(1)</script><img src=x onerror=alert(2)> & "Léa"';
    const t = await booth(name, 2, '<b>Bienvenue</b> </p><script>alert(3)</script>');
    try {
      const html = (await request(t.app).get('/')).text;
      expect(html).toContain('<p class="gp-welcome">&lt;b&gt;Bienvenue&lt;/b&gt; &lt;/p&gt;&lt;script&gt;alert(3)&lt;/script&gt;</p>');
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(inlinePage(html).event?.name).toBe(name);
      // Exactly one script runs: the page's own.
      expect(html.match(/<script(?! type="application\/json")/g)).toHaveLength(1);
    } finally {
      t.cleanup();
    }
  });

  it('follows the gallery: a new photo and a new print count are in the next page load', async () => {
    const t = await booth('Soirée', 2);
    try {
      expect(tileIds((await request(t.app).get('/')).text)).toEqual([item(2).id, item(1).id]);
      writeFileSync(path.join(t.captureDataDir, item(3).processed), 'jpeg');
      await t.services.indexer.handle({ event: 'DbInsert', data: item(3) });
      t.services.photoRepository.setPrinted(item(1).id, 2);
      const html = (await request(t.app).get('/')).text;
      expect(tileIds(html)).toEqual([item(3).id, item(2).id, item(1).id]);
      expect(html).toContain('×2</span>');
      expect(inlinePage(html).photos[2]?.printed_copies).toBe(2);
    } finally {
      t.cleanup();
    }
  });

  it('names a photo’s new thumbnail once a filter applied at the booth rewrote its file', async () => {
    const t = await booth('Soirée', 2);
    try {
      const before = inlinePage((await request(t.app).get('/')).text).photos[0]!.urls.thumb;
      writeFileSync(path.join(t.captureDataDir, item(2).processed), 'jpeg, filtered');
      await t.services.indexer.handle({ event: 'DbUpdate', data: { ...item(2), updated_at: '2026-11-22T13:00:00' } });
      const html = (await request(t.app).get('/')).text;
      const after = inlinePage(html).photos[0]!.urls.thumb;
      expect(after).not.toBe(before);
      expect(html).toContain(`<img src="${after}"`);
      expect(html).not.toContain(before);
    } finally {
      t.cleanup();
    }
  });

  it('draws no tiles without an event or photos, and still hands the app its (empty) first page', async () => {
    for (const [name, count] of [
      [null, 0],
      ['Vide', 0],
    ] as const) {
      const t = await booth(name, count);
      try {
        const html = (await request(t.app).get('/')).text;
        expect(html).toContain('<div id="app"></div>');
        expect(tileIds(html)).toEqual([]);
        expect(inlinePage(html)).toEqual({
          photos: [],
          next_cursor: null,
          event: name === null ? null : { name, photo_count: 0, welcome: null },
        });
      } finally {
        t.cleanup();
      }
    }
  });

  it('allows its own inline script by hash and no other, and leaves out the opener policy; other pages keep theirs', async () => {
    const t = await booth('Soirée', 1);
    try {
      const page = await request(t.app).get('/');
      const hash = createHash('sha256').update(BOOT).digest('base64');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['cross-origin-opener-policy']).toBeUndefined();
      for (const url of ['/admin', '/api/gallery/photos']) {
        const other = await request(t.app).get(url);
        expect(String(other.headers['content-security-policy']), url).toContain("script-src 'self';");
        expect(other.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      }
    } finally {
      t.cleanup();
    }
  });

  it('is sent in brotli or gzip as the browser takes them, and starts the guest’s session once', async () => {
    const t = await booth('Soirée', 3);
    try {
      const raw = (encoding: string) =>
        request(t.app)
          .get('/')
          .set('Accept-Encoding', encoding)
          .buffer(true)
          .parse((res, cb) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => cb(null, Buffer.concat(chunks)));
          });
      const plain = await raw('identity');
      const br = await raw('gzip, br');
      const gz = await raw('gzip');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(br.headers['content-encoding']).toBe('br');
      expect(gz.headers['content-encoding']).toBe('gzip');
      for (const res of [plain, br, gz]) expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
      // The test client decodes what it receives by itself; the length on the wire is the encoded one.
      const text = (plain.body as Buffer).toString('utf8');
      expect(tileIds(text)).toHaveLength(3);
      expect((br.body as Buffer).toString('utf8')).toBe(text);
      expect((gz.body as Buffer).toString('utf8')).toBe(text);
      expect(Number(br.headers['content-length'])).toBeLessThan(text.length / 3);
      expect(Number(gz.headers['content-length'])).toBeLessThan(text.length / 2);

      const cookie = String(plain.headers['set-cookie']);
      expect(cookie).toMatch(/^bd_guest=[^;]+;.*HttpOnly/);
      const again = await request(t.app)
        .get('/')
        .set('Cookie', cookie.split(';')[0] as string);
      expect(again.headers['set-cookie']).toBeUndefined();
      const session = await request(t.app)
        .get('/api/gallery/session')
        .set('Cookie', cookie.split(';')[0] as string);
      expect(session.headers['set-cookie']).toBeUndefined();
    } finally {
      t.cleanup();
    }
  });

  it('answers 503 in plain words while the front end is not built', async () => {
    const t = await booth('Soirée', 0);
    try {
      rmSync(path.join(t.rendererDir, 'gallery', 'index.html'));
      const res = await request(t.app).get('/');
      expect(res.status).toBe(503);
      expect(res.text).toContain('npm run build');
    } finally {
      t.cleanup();
    }
  });
});
