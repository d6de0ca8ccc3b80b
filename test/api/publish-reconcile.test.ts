import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import { publishHarness } from '../support/publish-harness.js';

const { app, admin, overview, settle, tempDir, start, webdav } = publishHarness('boothdeck-remote-');

/** Two events of three photos each, the second one current. */
async function twoEvents(): Promise<string[]> {
  const ids: string[] = [];
  for (const name of ['Avant', 'Maintenant']) {
    expect((await admin('post', '/events', { name })).status).toBe(201);
    ids.length = 0;
    for (let i = 0; i < 3; i++) ids.push((await app().sim.capture()).id);
    await app().services.indexer.rescan();
  }
  return ids;
}

/** Event folders under `<root>/<booth>`, each with its media, thumbs and photo pages counted. */
function placeOf(root: string, booth: string): { token: string; media: number; thumbs: number; pages: number; index: boolean }[] {
  const dir = path.join(root, booth);
  if (!existsSync(dir)) return [];
  const count = (p: string): number => (existsSync(p) ? readdirSync(p).length : 0);
  return readdirSync(dir)
    .filter((n) => !n.startsWith('.'))
    .map((token) => ({
      token,
      media: count(path.join(dir, token, 'media')),
      thumbs: count(path.join(dir, token, 'thumbs')),
      pages: count(path.join(dir, token, 'p')),
      index: existsSync(path.join(dir, token, 'index.html')),
    }))
    .sort((a, b) => a.token.localeCompare(b.token));
}
const complete = { media: 3, thumbs: 3, pages: 3, index: true };

async function publishBoth(settings: object): Promise<string[]> {
  const ids = await twoEvents();
  expect((await admin('put', '/publish/settings', { ...settings, enabled: true })).status).toBe(200);
  expect((await admin('post', '/publish/events/avant')).status).toBe(202);
  await settle();
  expect((await overview()).events.map((e) => [e.slug, e.state, e.photos_online, e.photos_to_send])).toEqual([
    ['maintenant', 'online', 3, 0],
    ['avant', 'online', 3, 0],
  ]);
  return ids;
}

// No "Tout télécharger" ZIP here (publish-password.test.ts covers it): these compare photos and pages only.
describe('what is online is what the console says', () => {
  it('a folder remote: a new folder and booth name get every event within one sync, and the old place is emptied', async () => {
    await start({ publish: { settleMs: 0, zipMaxBytes: 0 } });
    const first = tempDir();
    await publishBoth({ destination: { type: 'local', path: first }, booth_name: 'borne-1', public_base_url: 'https://p.example.com' });
    expect(placeOf(first, 'borne-1')).toHaveLength(2);

    const second = tempDir();
    await admin('put', '/publish/settings', { destination: { type: 'local', path: second }, booth_name: 'borne-2' });
    await settle();
    const moved = placeOf(second, 'borne-2');
    expect(moved).toEqual([expect.objectContaining(complete), expect.objectContaining(complete)]);
    // The old copies were on the same kind of remote: the booth removed them itself.
    expect(placeOf(first, 'borne-1')).toEqual([]);
    const o = await overview();
    expect(o.leftovers).toEqual([]);
    for (const e of o.events) {
      expect(e).toMatchObject({ state: 'online', photos_online: 3, photos_total: 3, photos_to_send: 0 });
      expect(e.url).toMatch(/^https:\/\/p\.example\.com\/borne-2\/[A-Za-z0-9_-]{22}\/$/);
      expect(moved.map((m) => m.token)).toContain(e.url?.split('/')[4]);
    }
    const index = await admin('get', '/publish/company-index.html');
    expect(index.text).toContain('/borne-2/');
    expect(index.text).not.toContain('/borne-1/');
  });

  // Two WebDAV servers and a dozen rclone runs: about 14 s on a quiet machine.
  it(
    'WebDAV: a new booth name moves the events on the same server; another server gets them all and the old copies are listed',
    { timeout: 60_000 },
    async () => {
      await start({ publish: { settleMs: 0, zipMaxBytes: 0 } });
      const servedA = tempDir();
      const a = await webdav(servedA);
      const davA = { type: 'webdav', url: a.url, vendor: 'other', user: 'booth', path: 'galeries' };
      await publishBoth({ destination: davA, booth_name: 'borne-1' });
      const rootA = path.join(servedA, 'galeries');

      await admin('put', '/publish/settings', { booth_name: 'borne-2' });
      await settle();
      expect(placeOf(rootA, 'borne-2')).toEqual([expect.objectContaining(complete), expect.objectContaining(complete)]);
      expect(placeOf(rootA, 'borne-1')).toEqual([]);

      const servedB = tempDir();
      const b = await webdav(servedB);
      await admin('put', '/publish/settings', { destination: { ...davA, url: b.url, path: '' }, booth_name: 'borne-3' });
      await settle();
      expect(placeOf(servedB, 'borne-3')).toEqual([expect.objectContaining(complete), expect.objectContaining(complete)]);
      const o = await overview();
      expect(o.events.every((e) => e.state === 'online' && e.photos_online === 3 && e.photos_to_send === 0)).toBe(true);
      // Another server: the booth no longer has its password, so the old copies are listed for the owner.
      expect(placeOf(rootA, 'borne-2')).toHaveLength(2);
      expect(o.leftovers).toHaveLength(2);
      for (const left of o.leftovers) {
        expect(left.removing).toBe(false);
        expect(left.where).toMatch(new RegExp(`^${a.url}/galeries/borne-2/[A-Za-z0-9_-]{22}/$`));
      }
      const [one] = o.leftovers;
      expect((await admin('delete', `/publish/leftovers/${one?.id}`)).status).toBe(204);
      expect((await admin('delete', `/publish/leftovers/${one?.id}`)).status).toBe(404);
      expect((await overview()).leftovers).toHaveLength(1);

      // Back to the first server: the events are sent again there, and the copy still listed is theirs, not a leftover.
      await admin('put', '/publish/settings', { destination: davA, booth_name: 'borne-2' });
      await settle();
      expect(placeOf(rootA, 'borne-2')).toEqual([expect.objectContaining(complete), expect.objectContaining(complete)]);
      expect((await overview()).events.every((e) => e.state === 'online')).toBe(true);
    },
  );

  it('a file removed on the remote by hand is put back at the next check, and the page too', async () => {
    const t = await start({ publish: { settleMs: 0, zipMaxBytes: 0 } });
    const root = tempDir();
    await publishBoth({ destination: { type: 'local', path: root }, booth_name: 'b' });
    const [place] = placeOf(root, 'b');
    const folder = path.join(root, 'b', place?.token ?? '?');
    const [victim] = readdirSync(path.join(folder, 'media'));
    const [page] = readdirSync(path.join(folder, 'p'));
    const bytes = readFileSync(path.join(folder, 'media', victim ?? '?'));
    rmSync(path.join(folder, 'media', victim ?? '?'));
    rmSync(path.join(folder, 'p', page ?? '?'));
    rmSync(path.join(folder, 'index.html'));

    // The periodic check (the timer's pass, or a retry) lists the folder and compares.
    t.services.publishing.queue.retryNow();
    await settle();
    expect(readFileSync(path.join(folder, 'media', victim ?? '?'))).toEqual(bytes);
    expect(existsSync(path.join(folder, 'p', page ?? '?'))).toBe(true);
    expect(existsSync(path.join(folder, 'index.html'))).toBe(true);
    expect((await overview()).events.every((e) => e.state === 'online' && e.photos_online === 3)).toBe(true);
  });

  it('never counts more online than wanted: a photo deleted at the booth leaves both numbers at once', async () => {
    await start({ publish: { settleMs: 0, zipMaxBytes: 0 } });
    const root = tempDir();
    const [id] = await publishBoth({ destination: { type: 'local', path: root }, booth_name: 'b' });
    // No sync runs: the numbers come from the index and the rows, before the queue reacts.
    await admin('put', '/publish/settings', { enabled: false });
    expect((await admin('delete', `/photos/${id}`)).status).toBeLessThan(300);
    const now = (await overview()).events.find((e) => e.slug === 'maintenant');
    expect(now?.photos_online).toBeLessThanOrEqual(now?.photos_total ?? 0);
    expect(now).toMatchObject({ photos_total: 2, photos_online: 2 });
  });
});

describe('Publier and the live toggle', () => {
  it('publishes an archived event with the toggle off, and the toggle alone does not publish the current one', async () => {
    await start({ publish: { settleMs: 0, zipMaxBytes: 0 } });
    await twoEvents();
    const root = tempDir();
    await admin('put', '/publish/settings', { destination: { type: 'local', path: root }, booth_name: 'b', enabled: false });
    expect((await admin('post', '/publish/events/avant')).status).toBe(202);
    await settle();
    const o = await overview();
    expect(o.events.find((e) => e.slug === 'avant')).toMatchObject({ state: 'online', photos_online: 3, photos_to_send: 0 });
    expect(o.events.find((e) => e.slug === 'maintenant')).toMatchObject({ state: 'none' });
    expect(placeOf(root, 'b')).toEqual([expect.objectContaining(complete)]);
  });
});

describe('expiry', () => {
  it('says the day on the page, refuses a past day, and the folder is gone after the first check on that day', async () => {
    let offset = 0;
    const system = createSystemClock();
    const clock = { ...system, now: () => system.now() + offset };
    await start({ clock, publish: { settleMs: 0, resyncMs: 100, zipMaxBytes: 0 } });
    await twoEvents();
    const root = tempDir();
    expect((await admin('put', '/publish/events/avant', { expires_on: '2099-01-01' })).status).toBe(409);
    await admin('put', '/publish/settings', { destination: { type: 'local', path: root }, booth_name: 'b', language: 'fr' });
    expect((await admin('post', '/publish/events/avant')).status).toBe(202);
    await settle();
    expect((await admin('put', '/publish/events/avant', { expires_on: '2001-01-01' })).body.error.details.issues[0].field).toBe(
      'expires_on',
    );
    expect((await admin('put', '/publish/events/avant', { expires_on: '2099-02-30' })).status).toBe(400);
    const day = new Date(clock.now() + 3 * 86_400_000);
    const iso = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    const set = await admin('put', '/publish/events/avant', { expires_on: iso });
    expect(set.status).toBe(200);
    expect(set.body.publication).toMatchObject({ expires_on: iso });
    await settle();
    const [place] = placeOf(root, 'b');
    const html = readFileSync(path.join(root, 'b', place?.token ?? '?', 'index.html'), 'utf8');
    expect(html).toContain('Cette galerie sera retirée le');
    expect(html).toContain(String(day.getFullYear()));

    offset = 3 * 86_400_000;
    // The next check (every 100 ms here, two minutes on a booth) withdraws it.
    await expect.poll(() => placeOf(root, 'b'), { timeout: 5000 }).toEqual([]);
    await expect.poll(async () => (await overview()).events.find((e) => e.slug === 'avant')?.state).toBe('withdrawn');
  });
});
