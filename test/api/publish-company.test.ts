import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimApp, type SimApp } from '../support/sim-app.js';

const apps: SimApp[] = [];
let root: string | undefined;
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const KEY = 'AbCdEfGhIjKlMnOpQrSt_-';

async function booth(name: string, event: string, dir: string): Promise<SimApp> {
  const s = await startSimApp({ publish: { settleMs: 0 } });
  apps.push(s);
  expect((await request(s.app).post('/api/admin/events').set('Cookie', s.cookie).send({ name: event })).status).toBe(201);
  await s.sim.capture();
  await s.services.indexer.rescan();
  const saved = await request(s.app)
    .put('/api/admin/publish/settings')
    .set('Cookie', s.cookie)
    .send({ destination: { type: 'local', path: dir }, booth_name: name, enabled: true, company_index: KEY });
  expect(saved.body).toMatchObject({ settings: { company_index: KEY } });
  return s;
}

describe('one company index per destination', () => {
  it('lists every booth’s events, each booth writing its own entry, never another’s', async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-fleet-'));
    const a = await booth('borne-a', 'Mariage <A>', root);
    const b = await booth('borne-b', 'Salon B', root);
    await Promise.all([a.services.publishing.queue.whenIdle(), b.services.publishing.queue.whenIdle()]);
    // The periodic check of each: whichever wrote the page last, it lists both booths.
    for (const s of [a, b, a]) {
      s.services.publishing.queue.retryNow();
      await s.services.publishing.queue.whenIdle();
    }
    const folder = path.join(root, `boothdeck-index-${KEY}`);
    expect(readdirSync(folder).sort()).toEqual(['borne-a.json', 'borne-b.json', 'index.html']);
    const entryA = JSON.parse(readFileSync(path.join(folder, 'borne-a.json'), 'utf8')) as {
      booth: string;
      events: { name: string; path: string }[];
    };
    expect(entryA.booth).toBe('borne-a');
    expect(entryA.events).toEqual([
      expect.objectContaining({ name: 'Mariage <A>', path: expect.stringMatching(/^borne-a\/[A-Za-z0-9_-]{22}\/$/) }),
    ]);
    const [tokenA] = readdirSync(path.join(root, 'borne-a'));
    expect(entryA.events[0]?.path).toBe(`borne-a/${tokenA}/`);
    const page = readFileSync(path.join(folder, 'index.html'), 'utf8');
    expect(page).toContain('<script type="application/json" id="booths">["borne-a","borne-b"]</script>');
    // The page holds no event: names are only ever set as text by its script.
    expect(page).not.toContain('Mariage');

    // Booth B withdraws its event: only its own entry changes.
    const before = readFileSync(path.join(folder, 'borne-a.json'), 'utf8');
    expect((await request(b.app).delete('/api/admin/publish/events/salon-b').set('Cookie', b.cookie)).status).toBe(202);
    await b.services.publishing.queue.whenIdle();
    expect(JSON.parse(readFileSync(path.join(folder, 'borne-b.json'), 'utf8')).events).toEqual([]);
    expect(readFileSync(path.join(folder, 'borne-a.json'), 'utf8')).toBe(before);

    // A key is 22 characters of the base64url alphabet, nothing else.
    const bad = await request(a.app).put('/api/admin/publish/settings').set('Cookie', a.cookie).send({ company_index: '../../etc' });
    expect(bad.status).toBe(400);
  });
});
