import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { publishToFolder, startSimApp, type SimApp } from '../support/sim-app.js';

let t: SimApp | undefined;
let root: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the published page carries the welcome line, a logo and colours', () => {
  it('checks the logo by its bytes and the colours as #rrggbb, escapes the welcome line, and publishes them', async () => {
    t = await startSimApp({ publish: { settleMs: 0 } });
    const s = t;
    const owner = (method: 'put' | 'delete', p: string, body?: object) =>
      request(s.app)[method](`/api/admin/publish${p}`).set('Cookie', s.cookie).send(body);
    const png = await sharp({ create: { width: 120, height: 40, channels: 4, background: '#c0392b' } })
      .png()
      .toBuffer();

    // Refused, with nothing changed: not a picture, a picture's first bytes only, too large, a colour not #rrggbb.
    expect((await owner('put', '/logo', { data: Buffer.from('<svg onload=alert(1)>').toString('base64') })).status).toBe(400);
    expect((await owner('put', '/logo', { data: png.subarray(0, 40).toString('base64') })).status).toBe(400);
    expect((await owner('put', '/logo', { data: Buffer.alloc(270 * 1024, 1).toString('base64') })).status).toBe(400);
    expect((await owner('put', '/logo', { data: 'not base64!' })).status).toBe(400);
    const badColour = await owner('put', '/settings', { colors: { background: 'red;}body{x', text: '#ffffff', accent: '#000000' } });
    expect(badColour.status).toBe(400);
    expect(badColour.body.error.details.issues[0].field).toBe('colors.background');
    expect((await request(s.app).get('/api/admin/publish/settings').set('Cookie', s.cookie)).body).toMatchObject({
      logo: null,
      settings: { colors: null },
    });

    const saved = await owner('put', '/logo', { data: png.toString('base64') });
    expect(saved.status).toBe(200);
    expect(saved.body.logo).toEqual({ type: 'png', size: png.length, width: 120, height: 40 });
    expect((await owner('put', '/settings', { colors: { background: '#FDF6EC', text: '#2b2118', accent: '#C0392B' } })).status).toBe(200);

    const created = await request(s.app)
      .post('/api/admin/events')
      .set('Cookie', s.cookie)
      .send({ name: 'Noces <b>', welcome: 'Bienvenue <script>alert(1)</script> & merci' });
    expect(created.status).toBe(201);
    await s.sim.capture();
    await s.services.indexer.rescan();
    root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-brand-'));
    const folder = await publishToFolder(s, root);
    const html = readFileSync(path.join(folder, 'index.html'), 'utf8');
    expect(html).toContain(
      '<p class="welcome" data-testid="gallery-welcome">Bienvenue &lt;script&gt;alert(1)&lt;/script&gt; &amp; merci</p>',
    );
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('body{background:#fdf6ec;color:#2b2118}');
    const logo = /<img class="logo" src="(logo\/[0-9a-f]{16}\.png)"/.exec(html)?.[1] ?? '';
    expect(readFileSync(path.join(folder, logo))).toEqual(png);

    // A new logo: every page written again with it, the old one removed by the check.
    const other = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    expect((await owner('put', '/logo', { data: other.toString('base64') })).status).toBe(200);
    await s.services.publishing.queue.whenIdle();
    s.services.publishing.queue.retryNow();
    await s.services.publishing.queue.whenIdle();
    const next = /<img class="logo" src="(logo\/[0-9a-f]{16}\.jpg)"/.exec(readFileSync(path.join(folder, 'index.html'), 'utf8'))?.[1] ?? '';
    expect(readFileSync(path.join(folder, next))).toEqual(other);
    expect(existsSync(path.join(folder, logo))).toBe(false);

    // No logo, no colours: Boothdeck's own page again.
    expect((await owner('delete', '/logo')).body.logo).toBeNull();
    expect((await owner('put', '/settings', { colors: null })).status).toBe(200);
    await s.services.publishing.queue.whenIdle();
    const plain = readFileSync(path.join(folder, 'index.html'), 'utf8');
    expect(plain).not.toContain('class="logo"');
    expect(plain).not.toContain('#fdf6ec');
  });
});
