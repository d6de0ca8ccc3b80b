import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimApp, type SimApp } from '../support/sim-app.js';

let t: SimApp | undefined;
let root: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a link per photo', () => {
  it('gives guests the page of a photo of the current event once it is online, and nothing else', async () => {
    t = await startSimApp({ publish: { settleMs: 0 } });
    const s = t;
    const admin = (p: string, body: object) => request(s.app).post(`/api/admin${p}`).set('Cookie', s.cookie).send(body);
    expect((await admin('/events', { name: 'Avant <b>' })).status).toBe(201);
    const old = await s.sim.capture();
    expect((await admin('/events', { name: 'Gala & co' })).status).toBe(201);
    const photo = await s.sim.capture();
    await s.services.indexer.rescan();
    const link = (id: string) => request(s.app).get(`/api/gallery/online/photos/${id}`);
    expect((await link(photo.id)).body).toEqual({ url: null, svg: null });
    expect((await link('not-an-id')).status).toBe(400);

    root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-remote-'));
    await s.services.publishing.service.update({
      destination: { type: 'local', path: root },
      booth_name: 'b',
      public_base_url: 'https://p.example.com',
      enabled: true,
    });
    expect((await admin('/publish/events/avant-b', {})).status).toBe(202);
    await s.services.publishing.queue.whenIdle();

    const answer = (await link(photo.id)).body as { url: string; svg: string };
    expect(answer.url).toMatch(/^https:\/\/p\.example\.com\/b\/[A-Za-z0-9_-]{22}\/p\/[^/]+\.html$/);
    expect(answer.svg).toContain('<svg');
    // Another event's photo, even online, is not the guests' business on the booth's Wi-Fi.
    expect((await link(old.id)).body).toEqual({ url: null, svg: null });

    const file = path.join(root, answer.url.slice('https://p.example.com/'.length));
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('Gala &amp; co');
    // The page shows the 1600 px preview; the download is the full file.
    const shown = /<img class="m" src="\.\.\/(previews\/[^"]+\.webp)"/.exec(html)?.[1] ?? '?';
    const folder = path.dirname(path.dirname(file));
    const meta = await sharp(path.join(folder, shown)).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(1600);
    expect(meta.format).toBe('webp');
    expect(html).toMatch(/href="\.\.\/media\/[^"]+" download="Gala-et-co_[^"]+\.jpg"/);
    expect(html).toContain('href="../"');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(html).not.toContain('<script');
  });
});
