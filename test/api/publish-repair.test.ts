import { existsSync, readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublishOverview } from '../../server/contract/publish.contract.js';
import { mediaVersion } from '../../server/photos/media-version.js';
import { FakeRclone } from '../../server/publish/rclone.fake.js';
import { publishHarness } from '../support/publish-harness.js';

const { app, admin, overview, settle, tempDir, start, webdav } = publishHarness('boothdeck-repair-');

/** Events of three photos each, the last one current. */
async function events(...names: string[]): Promise<void> {
  for (const name of names) {
    expect((await admin('post', '/events', { name })).status).toBe(201);
    for (let i = 0; i < 3; i++) await app().sim.capture();
    await app().services.indexer.rescan();
  }
}

/** Every file under `dir`, relative to it. */
const walk = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

describe('the check sees a file cut short', () => {
  it('a photo and a preview cut to half their size on the remote are sent again whole by the next check', async () => {
    await start({ publish: { settleMs: 0, zipMaxBytes: 0 } });
    await events('Fête');
    const root = tempDir();
    await admin('put', '/publish/settings', { destination: { type: 'local', path: root }, booth_name: 'b', enabled: true });
    await settle();
    const [token = ''] = readdirSync(path.join(root, 'b'));
    const folder = path.join(root, 'b', token);
    const whole = new Map(walk(folder).map((f) => [f, readFileSync(path.join(folder, f))]));
    const [media = ''] = readdirSync(path.join(folder, 'media'));
    const [preview = ''] = readdirSync(path.join(folder, 'previews'));
    for (const cut of [path.join(folder, 'media', media), path.join(folder, 'previews', preview)])
      truncateSync(cut, Math.floor(statSync(cut).size / 2));

    // The next check (the periodic pass, or a retry) lists the folder with sizes and compares.
    app().services.publishing.queue.retryNow();
    await settle();
    for (const [file, bytes] of whole) if (!file.endsWith('index.html')) expect(readFileSync(path.join(folder, file))).toEqual(bytes);
    expect((await overview()).events[0]).toMatchObject({ state: 'online', photos_online: 3, photos_to_send: 0 });
  });
});

describe('counts after a move', () => {
  it('never counts, nor links to, more than the new place holds, at every step of the move', { timeout: 60_000 }, async () => {
    const rclone = new FakeRclone();
    await start({ rclone, publish: { settleMs: 0, zipMaxBytes: 0, batchSize: 1 } });
    await events('Avant', 'Maintenant');
    const place = { destination: { type: 'local', path: '/srv/galeries' }, public_base_url: 'https://p.example.com' };
    await admin('put', '/publish/settings', { ...place, booth_name: 'b1', enabled: true });
    expect((await admin('post', '/publish/events/avant')).status).toBe(202);
    await settle();
    expect((await overview()).events.map((e) => [e.state, e.photos_online])).toEqual([
      ['online', 3],
      ['online', 3],
    ]);

    /** What the new place holds of each event: its whole media files, and whether its page is there. */
    const held = (token: string): { media: number; page: boolean } => {
      const dest = `boothdeck:/srv/galeries/b2/${token}`;
      return { media: rclone.list(dest).filter((n) => n.startsWith('media/')).length, page: rclone.files.has(`${dest}/index.html`) };
    };
    // Tokens stay through a move: only the booth name in front of them changes.
    const tokens = new Map((await overview()).events.map((e) => [e.slug, e.url?.split('/')[4] ?? '?']));
    const steps: PublishOverview[] = [];
    const wrong: string[] = [];
    // Noted, not thrown: a throw here would be the remote failing, which the queue retries.
    rclone.beforeRun = async () => {
      // The console's answer first, the remote after: files only arrive during a move, so the
      // remote read second holds at least what it held when the console answered.
      const o = await overview();
      steps.push(o);
      for (const e of o.events) {
        const there = held(tokens.get(e.slug) ?? '?');
        if (e.url !== null && !e.url.startsWith('https://p.example.com/b2/')) wrong.push(`${e.slug} links to ${e.url}`);
        if (e.url !== null && !there.page) wrong.push(`${e.slug} links to a page not there yet`);
        if (e.photos_online > there.media) wrong.push(`${e.slug} counts ${e.photos_online} online, the new place holds ${there.media}`);
      }
    };
    await admin('put', '/publish/settings', { booth_name: 'b2' });
    await settle();
    rclone.beforeRun = null;
    expect(wrong).toEqual([]);
    // The move was seen in its steps: one event sent while the other waited its turn.
    expect(steps.some((o) => o.events.some((e) => e.photos_online === 3) && o.events.some((e) => e.photos_online < 3))).toBe(true);
    const end = await overview();
    expect(end.events.map((e) => [e.state, e.photos_online, e.photos_to_send])).toEqual([
      ['online', 3, 0],
      ['online', 3, 0],
    ]);
    for (const e of end.events) expect(held(e.url?.split('/')[4] ?? '?')).toEqual({ media: 3, page: true });
  });
});

describe('previews made once', () => {
  it('are made as photos arrive, and a rename and two passwords later no photo was decoded again', async () => {
    const rclone = new FakeRclone();
    await start({ rclone, publish: { settleMs: 0, zipMaxBytes: 0 } });
    const { previews, previewsAhead } = app().services.publishing;
    expect((await admin('post', '/events', { name: 'Fête' })).status).toBe(201);
    // The remote refuses: nothing can be sent, yet each photo's preview is made as it arrives.
    rclone.failure = 'unreachable';
    await admin('put', '/publish/settings', { destination: { type: 'local', path: '/srv/g' }, booth_name: 'b', enabled: true });
    for (let i = 0; i < 3; i++) await app().sim.capture();
    await app().services.indexer.rescan();
    await previewsAhead.idle();
    const photos = app().services.photoRepository.query({ limit: 10 });
    expect(photos).toHaveLength(3);
    for (const p of photos) expect(previews.has(p.id, mediaVersion(p))).toBe(true);
    expect(previews.made).toBe(3);
    expect(rclone.files.size).toBe(0);

    rclone.failure = null;
    app().services.publishing.queue.retryNow();
    await settle();
    await admin('put', '/publish/settings', { booth_name: 'b2' });
    await settle();
    const b2 = [...rclone.files.keys()].filter((k) => k.startsWith('boothdeck:/srv/g/b2/'));
    expect(b2.filter((k) => k.includes('/previews/'))).toHaveLength(3);
    // The tiles keep the photos' 3:2.
    const page = rclone.files.get(b2.find((k) => k.endsWith('/index.html')) ?? '')?.toString() ?? '';
    expect(page.match(/<li style="--r:1\.5">/g)).toHaveLength(3);

    for (const password of ['trois petits chats sur le toit', 'un autre secret bien gardé']) {
      expect((await admin('put', '/publish/events/fete', { password })).status).toBe(200);
      await settle();
    }
    const sealed = [...rclone.files.keys()].filter((k) => k.startsWith('boothdeck:/srv/g/b2/') && k.includes('/previews/'));
    expect(sealed).toHaveLength(3);
    expect(sealed.every((k) => k.endsWith('.bin'))).toBe(true);
    expect(previews.made).toBe(3);
    expect((await overview()).events[0]).toMatchObject({ state: 'online', photos_online: 3, password_set: true });
  });

  it('are not made for an event that does not go online, and go when an event is withdrawn', async () => {
    const rclone = new FakeRclone();
    await start({ rclone, publish: { settleMs: 0, zipMaxBytes: 0 } });
    const { previews, previewsAhead } = app().services.publishing;
    await admin('put', '/publish/settings', { destination: { type: 'local', path: '/srv/g' }, booth_name: 'b', enabled: false });
    await events('Fête');
    await previewsAhead.idle();
    const photos = app().services.photoRepository.query({ limit: 10 });
    expect(photos.some((p) => previews.has(p.id, mediaVersion(p)))).toBe(false);

    expect((await admin('post', '/publish/events/fete')).status).toBe(202);
    await settle();
    expect(photos.every((p) => previews.has(p.id, mediaVersion(p)))).toBe(true);
    expect((await admin('delete', '/publish/events/fete')).status).toBe(202);
    await settle();
    expect(photos.some((p) => previews.has(p.id, mediaVersion(p)))).toBe(false);
  });
});

describe('old copies and retries', () => {
  it(
    'a copy left in a folder of the booth’s disk is removed once the booth publishes to a WebDAV server',
    { timeout: 60_000 },
    async () => {
      await start({ publish: { settleMs: 0, zipMaxBytes: 0 } });
      await events('Fête');
      const root = tempDir();
      await admin('put', '/publish/settings', { destination: { type: 'local', path: root }, booth_name: 'b', enabled: true });
      await settle();
      expect(readdirSync(path.join(root, 'b'))).toHaveLength(1);

      const served = tempDir();
      const dav = await webdav(served);
      await admin('put', '/publish/settings', { destination: { type: 'webdav', url: dav.url, vendor: 'other', user: 'u', path: 'g' } });
      await settle();
      expect(existsSync(path.join(root, 'b')) ? readdirSync(path.join(root, 'b')) : []).toEqual([]);
      const o = await overview();
      expect(o.leftovers).toEqual([]);
      expect(o.events[0]).toMatchObject({ state: 'online', photos_online: 3 });
      expect(walk(path.join(served, 'g', 'b')).filter((f) => f.includes('/media/'))).toHaveLength(3);
    },
  );

  it('keeps counting down to the next try while a retry waits on a remote that does not answer', { timeout: 120_000 }, async () => {
    const rclone = new FakeRclone();
    rclone.failure = 'unreachable';
    await start({ rclone, publish: { settleMs: 0, retryMinMs: 50, retryMaxMs: 200, zipMaxBytes: 0 } });
    await events('Fête');
    await admin('put', '/publish/settings', { destination: { type: 'local', path: '/srv/g' }, booth_name: 'b', enabled: true });
    // The first pass makes the previews before its first upload fails: on a busy machine, a while.
    await expect.poll(async () => (await overview()).status.state, { timeout: 60_000 }).toBe('waiting');
    // The server comes back, but accepts and never answers: the next try's first question hangs.
    let answer: () => void = () => undefined;
    rclone.hold = new Promise<void>((resolve) => (answer = resolve));
    rclone.failure = null;
    let hanging: PublishOverview | undefined;
    await expect
      .poll(
        async () => {
          hanging = await overview();
          return hanging.status.retry_in_s ?? 0;
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(25);
    expect(hanging?.status).toMatchObject({ state: 'waiting', last_error: { reason: 'unreachable' } });
    rclone.hold = null;
    answer();
    await settle();
    expect((await overview()).status).toMatchObject({ state: 'idle', last_error: null, retry_in_s: null });
    expect((await overview()).events[0]).toMatchObject({ state: 'online', photos_online: 3 });
  });
});
