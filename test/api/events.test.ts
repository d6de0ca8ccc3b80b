import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BoothEvent } from '../../server/contract/events.contract.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';
import { readZip } from '../support/zip.js';
import { binary } from '../support/binary.js';

let t: SimApp;
beforeEach(async () => {
  t = await startSimApp();
});
afterEach(async () => {
  await t.close();
});

const admin = (method: 'get' | 'post', p: string, body?: object) =>
  request(t.app)[method](`/api/admin${p}`).set('Cookie', t.cookie).send(body);
const createEvent = async (name: string, slug?: string): Promise<BoothEvent> => {
  const res = await admin('post', '/events', slug ? { name, slug } : { name });
  expect(res.status).toBe(201);
  return res.body.event as BoothEvent;
};
const openEvents = (): number => (t.db.prepare('SELECT COUNT(*) AS n FROM events WHERE archived_at IS NULL').get() as { n: number }).n;

describe('events', () => {
  it('creates an event with a slug derived from its name, current and with its history', async () => {
    const event = await createEvent('Mariage Léa & Tom');
    expect(event).toMatchObject({
      slug: 'mariage-lea-et-tom',
      name: 'Mariage Léa & Tom',
      current: true,
      archived_at: null,
      photo_count: 0,
    });
    expect(event.history.map((h) => h.kind)).toEqual(['created']);
  });

  it('archives every open event when a new one is created: exactly one is current', async () => {
    await createEvent('Soirée 1');
    await createEvent('Soirée 2');
    await createEvent('Soirée 3');
    const res = await admin('get', '/events');
    expect(res.body.current_slug).toBe('soiree-3');
    const events = res.body.events as BoothEvent[];
    expect(events.filter((e) => e.current).map((e) => e.slug)).toEqual(['soiree-3']);
    expect(events.find((e) => e.slug === 'soiree-1')).toMatchObject({ current: false, archived_at: expect.any(String) });
    expect(events.find((e) => e.slug === 'soiree-2')?.history.map((h) => h.kind)).toEqual(['created', 'archived']);
    expect(openEvents()).toBe(1);
  });

  it('keeps exactly one current event through a burst of creations', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => admin('post', '/events', { name: `Fête ${i % 4}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 409)).toHaveLength(8);
    expect(openEvents()).toBe(1);
  });

  it('takes an edited slug, and refuses one already taken with 409', async () => {
    expect((await createEvent('Anniversaire', 'anniv-2026')).slug).toBe('anniv-2026');
    const again = await admin('post', '/events', { name: 'Autre', slug: 'anniv-2026' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('slug_taken');
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'Ok', slug: 'Pas Bon' }, 'slug'],
    [{ name: 'Ok', slug: '../x' }, 'slug'],
    [{ name: '!!!' }, 'slug'],
    [{ name: 'Ok', current: false }, 'current: unknown field'],
  ])('refuses %j with 400 and creates nothing', async (body, field) => {
    const res = await admin('post', '/events', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
    expect((await admin('get', '/events')).body.events).toEqual([]);
  });
});

describe('reopening an archived event', () => {
  it('makes it current again and archives the current one, in one step, with both histories', async () => {
    await createEvent('Soirée 1');
    await createEvent('Soirée 2');
    const res = await admin('post', '/events/soiree-1/reopen');
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ slug: 'soiree-1', current: true, archived_at: null });
    expect((res.body.event as BoothEvent).history.map((h) => h.kind)).toEqual(['created', 'archived', 'reopened']);
    const list = await admin('get', '/events');
    expect(list.body.current_slug).toBe('soiree-1');
    const second = (list.body.events as BoothEvent[]).find((e) => e.slug === 'soiree-2');
    expect(second).toMatchObject({ current: false, archived_at: expect.any(String) });
    expect(second?.history.map((h) => h.kind)).toEqual(['created', 'archived']);
    expect(openEvents()).toBe(1);
  });

  it('new photos join the reopened event', async () => {
    await createEvent('Soirée 1');
    await createEvent('Soirée 2');
    await admin('post', '/events/soiree-1/reopen');
    await t.sim.capture('after-reopen', new Date(Date.now() + 1000));
    expect((await t.services.indexer.rescan()).added).toBe(1);
    const events = (await admin('get', '/events')).body.events as BoothEvent[];
    expect(events.find((e) => e.slug === 'soiree-1')?.photo_count).toBe(1);
    expect(events.find((e) => e.slug === 'soiree-2')?.photo_count).toBe(0);
  });

  it('leaves the current event as it is, and answers 404 for an unknown one and 400 for a slug that is not one', async () => {
    await createEvent('Soirée 1');
    const same = await admin('post', '/events/soiree-1/reopen');
    expect(same.status).toBe(200);
    expect(same.body.event.history.map((h: { kind: string }) => h.kind)).toEqual(['created']);
    expect((await admin('post', '/events/nope/reopen')).status).toBe(404);
    expect((await admin('post', '/events/NOT%20A%20SLUG/reopen')).status).toBe(400);
    expect(openEvents()).toBe(1);
  });
});

describe('ZIP export', () => {
  it('streams the event’s photos, stored, named from the event and the capture time', async () => {
    await createEvent('Mariage Léa et Tom');
    // The next whole second: after the event was created, with room for two photos in it.
    const second = new Date(Date.now() + 1000);
    second.setMilliseconds(100);
    const a = await t.sim.capture('a', second);
    const b = await t.sim.capture('b', new Date(second.getTime() + 300));
    const c = await t.sim.capture('c', new Date(second.getTime() + 1500));
    expect((await t.services.indexer.rescan()).added).toBe(3);

    const res = await request(t.app)
      .get('/api/admin/events/mariage-lea-et-tom/export.zip')
      .set('Cookie', t.cookie)
      .buffer(true)
      .parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('filename="Mariage-Lea-et-Tom.zip"');
    const entries = await readZip(res.body as Buffer);
    const stamp = (d: Date): string =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}_${String(d.getHours()).padStart(2, '0')}-${String(d.getMinutes()).padStart(2, '0')}-${String(d.getSeconds()).padStart(2, '0')}`;
    expect(entries.map((e) => e.name)).toEqual([
      `Mariage-Lea-et-Tom_${stamp(second)}.jpg`,
      `Mariage-Lea-et-Tom_${stamp(second)}-2.jpg`,
      `Mariage-Lea-et-Tom_${stamp(new Date(second.getTime() + 1500))}.jpg`,
    ]);
    expect(entries.every((e) => e.method === 0)).toBe(true);
    [a, b, c].forEach((item, i) => expect(entries[i]?.data.equals(readFileSync(path.join(t.sim.dataDir, item.processed)))).toBe(true));
    const events = (await admin('get', '/events')).body.events as BoothEvent[];
    expect(events[0]?.history.map((h) => h.kind)).toEqual(['created', 'exported']);
  });

  it('reports a photo whose file vanished inside the ZIP instead of failing', async () => {
    await createEvent('Gala');
    const kept = await t.sim.capture('kept');
    const lost = await t.sim.capture('lost');
    await t.services.indexer.rescan();
    rmSync(path.join(t.sim.dataDir, lost.processed));
    const res = await request(t.app).get('/api/admin/events/gala/export.zip').set('Cookie', t.cookie).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    const entries = await readZip(res.body as Buffer);
    expect(entries).toHaveLength(2);
    expect(entries[0]?.data.equals(readFileSync(path.join(t.sim.dataDir, kept.processed)))).toBe(true);
    expect(entries[1]?.name).toBe('_fichiers-manquants.txt');
    expect(entries[1]?.data.toString()).toContain('Gala_');
  });

  it('answers 404 for an unknown event and 400 for a slug that is not one', async () => {
    expect((await admin('get', '/events/nothing-here/export.zip')).status).toBe(404);
    expect((await admin('get', '/events/..%2F..%2Fetc/export.zip')).status).toBe(400);
  });

  it('reports its progress under the token the console chose', async () => {
    await createEvent('Progress');
    await t.sim.capture();
    await t.sim.capture();
    await t.services.indexer.rescan();
    const res = await request(t.app)
      .get('/api/admin/events/progress/export.zip?progress=tok-12345678')
      .set('Cookie', t.cookie)
      .buffer(true)
      .parse(binary);
    expect(res.headers['x-export-files']).toBe('2');
    const progress = await admin('get', '/events/progress/export/progress/tok-12345678');
    expect(progress.body).toMatchObject({ state: 'done', files_done: 2, files_total: 2, missing: 0 });
    expect(progress.body.bytes_done).toBe(progress.body.bytes_total);
    expect((await admin('get', '/events/progress/export/progress/unknown-token')).status).toBe(404);
  });
});

describe('the one-current-event rule in the database itself', () => {
  it('holds across connections, and forbids a second open event outright', async () => {
    const { openDatabase } = await import('../../server/db/database.js');
    const { EventRepository } = await import('../../server/events/event.repository.js');
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'boothdeck-events-')), 'db.sqlite');
    const first = openDatabase(file);
    const second = openDatabase(file);
    const a = new EventRepository(first);
    const b = new EventRepository(second);
    a.createCurrent('un', 'Un', 1000);
    b.createCurrent('deux', 'Deux', 2000);
    a.createCurrent('trois', 'Trois', 3000);
    expect(b.current()?.slug).toBe('trois');
    expect((second.prepare('SELECT COUNT(*) AS n FROM events WHERE archived_at IS NULL').get() as { n: number }).n).toBe(1);
    expect(() => second.prepare("INSERT INTO events (slug, name, created_at) VALUES ('quatre', 'Quatre', 4000)").run()).toThrow(/UNIQUE/);
    first.close();
    second.close();
  });
});

describe('a HEAD on the export', () => {
  it('answers the headers without exporting anything', async () => {
    await createEvent('Tête');
    await t.sim.capture();
    await t.services.indexer.rescan();
    const res = await request(t.app).head('/api/admin/events/tete/export.zip').set('Cookie', t.cookie);
    expect(res.status).toBe(200);
    expect(res.headers['x-export-files']).toBe('1');
    const events = (await admin('get', '/events')).body.events as BoothEvent[];
    expect(events[0]?.history.map((h) => h.kind)).toEqual(['created']);
  });
});
