import { createDecipheriv, pbkdf2Sync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { publishToFolder, startSimApp, type SimApp } from '../support/sim-app.js';
import { readZip } from '../support/zip.js';

let t: SimApp | undefined;
let root: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
});

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full, base) : [path.relative(base, full)];
  });
}

/** What a browser would find at the start of a picture or a video it can show. */
function readableMedia(bytes: Buffer): string | null {
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpeg';
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (bytes.subarray(0, 3).toString('latin1') === 'GIF') return 'gif';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  if (bytes.includes(Buffer.from('WEBP')) || bytes.includes(Buffer.from('JFIF')) || bytes.includes(Buffer.from('Exif'))) return 'marker';
  return null;
}

interface Lock {
  salt: string;
  iterations: number;
  sealed: string;
}

const lockOf = (html: string): Lock =>
  JSON.parse(/<script type="application\/json" id="lock">(.*?)<\/script>/.exec(html)?.[1] ?? 'null') as Lock;

/** Opens a sealed file as the page's script does, with a key derived from `password`. */
function open(lock: Lock, password: string, sealed: Buffer): Buffer {
  const key = pbkdf2Sync(password, Buffer.from(lock.salt, 'base64'), lock.iterations, 32, 'sha256');
  expect(sealed.subarray(0, 4).toString('latin1')).toBe('BDK1');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(4, 16));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(16, sealed.length - 16)), decipher.final()]);
}

interface SealedList {
  title: string;
  photos: { id: string; m: string; p?: string; t: string; n: string; x: string }[];
}

describe('a password per event', () => {
  it('seals every photo, its names and the list; the right password opens them, a wrong one does not', async () => {
    t = await startSimApp({ publish: { settleMs: 0 } });
    const s = t;
    const put = (slug: string, body: object) => request(s.app).put(`/api/admin/publish/events/${slug}`).set('Cookie', s.cookie).send(body);
    expect((await request(s.app).post('/api/admin/events').set('Cookie', s.cookie).send({ name: 'Mariage Secret' })).status).toBe(201);
    const photos = [await s.sim.capture(), await s.sim.capture(), await s.sim.capture('v', new Date(), 'video')];
    await s.services.indexer.rescan();

    // Set before anything is published: nothing ever goes up in the clear.
    expect((await put('mariage-secret', { password: 'court' })).status).toBe(400);
    expect((await put('mariage-secret', { password: 'a\u0000bcdefg' })).status).toBe(400);
    const set = await put('mariage-secret', { password: 'vive les mariés de juin sous la pluie' });
    expect(set.status).toBe(200);
    expect(set.body.publication.password_set).toBe(true);
    expect(JSON.stringify(set.body)).not.toContain('vive les mariés de juin sous la pluie');

    root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-sealed-'));
    await s.services.publishing.service.update({
      destination: { type: 'local', path: root },
      booth_name: 'b',
      public_base_url: 'https://p.example.com',
      enabled: true,
    });
    await s.services.publishing.queue.whenIdle();
    const [token = ''] = readdirSync(path.join(root, 'b'));
    const folder = path.join(root, 'b', token);
    const files = walk(folder);
    expect(files.filter((f) => f.startsWith('media/'))).toHaveLength(3);
    for (const file of files) {
      // No capture time, version or file type in a name.
      expect(file).toMatch(/^(index\.html|(media|thumbs|previews|zip)\/[A-Za-z0-9_-]{27}\.bin|p\/[A-Za-z0-9_-]{27}\.html)$/);
      const bytes = readFileSync(path.join(folder, file));
      if (file.endsWith('.html')) continue;
      expect(readableMedia(bytes), file).toBeNull();
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('BDK1');
    }
    const html = readFileSync(path.join(folder, 'index.html'), 'utf8');
    for (const secret of ['Mariage', 'Secret', 'vive les mariés de juin sous la pluie', ...photos.map((p) => p.id)])
      expect(html).not.toContain(secret);
    expect(html).not.toMatch(/(src|href)="(media|thumbs|previews)\//);

    const lock = lockOf(html);
    expect(lock.iterations).toBeGreaterThanOrEqual(600_000);
    expect(() => open(lock, 'vive les maries', Buffer.from(lock.sealed, 'base64'))).toThrow();
    const list = JSON.parse(
      open(lock, 'vive les mariés de juin sous la pluie', Buffer.from(lock.sealed, 'base64')).toString('utf8'),
    ) as SealedList;
    expect(list.title).toBe('Mariage Secret');
    expect(list.photos).toHaveLength(3);
    const still = list.photos.find((p) => p.x === 'image/jpeg');
    expect(still?.n).toMatch(/^Mariage-Secret_.+\.jpg$/);
    const media = open(lock, 'vive les mariés de juin sous la pluie', readFileSync(path.join(folder, still?.m ?? '')));
    expect(readableMedia(media)).toBe('jpeg');
    expect(readableMedia(open(lock, 'vive les mariés de juin sous la pluie', readFileSync(path.join(folder, still?.p ?? ''))))).toBe(
      'webp',
    );
    expect(readableMedia(open(lock, 'vive les mariés de juin sous la pluie', readFileSync(path.join(folder, still?.t ?? ''))))).toBe(
      'webp',
    );
    const video = list.photos.find((p) => p.x === 'video/mp4');
    expect(readableMedia(open(lock, 'vive les mariés de juin sous la pluie', readFileSync(path.join(folder, video?.m ?? ''))))).toBe('mp4');

    // A guest's photo link leads to the gallery's prompt, then to that photo.
    const link = (await request(s.app).get(`/api/gallery/online/photos/${photos[0]?.id ?? ''}`)).body as { url: string };
    const page = readFileSync(path.join(root, link.url.slice('https://p.example.com/'.length)), 'utf8');
    const id = path.basename(link.url, '.html');
    expect(page).toContain(`url=../#${id}`);
    expect(list.photos.map((p) => p.id)).toContain(id);

    // A new password: everything sent again under new names, the old files gone.
    expect((await put('mariage-secret', { password: 'un autre secret bien gardé' })).status).toBe(200);
    await s.services.publishing.queue.whenIdle();
    const after = walk(folder);
    expect(after.filter((f) => f.startsWith('media/'))).toHaveLength(3);
    expect(after.filter((f) => files.includes(f) && f !== 'index.html')).toEqual([]);
    const lock2 = lockOf(readFileSync(path.join(folder, 'index.html'), 'utf8'));
    expect(() => open(lock2, 'vive les mariés de juin sous la pluie', Buffer.from(lock2.sealed, 'base64'))).toThrow();
    expect(JSON.parse(open(lock2, 'un autre secret bien gardé', Buffer.from(lock2.sealed, 'base64')).toString('utf8')).photos).toHaveLength(
      3,
    );

    // No password any more: the plain gallery comes back and no sealed file is left.
    const cleared = await put('mariage-secret', { password: null });
    expect(cleared.body.publication.password_set).toBe(false);
    await s.services.publishing.queue.whenIdle();
    const plain = walk(folder);
    expect(plain.filter((f) => f.endsWith('.bin'))).toEqual([]);
    expect(plain.filter((f) => f.startsWith('media/'))).toHaveLength(3);
    expect(readFileSync(path.join(folder, 'index.html'), 'utf8')).toContain('Mariage Secret');

    const overview = await request(s.app).get('/api/admin/publish').set('Cookie', s.cookie);
    for (const text of ['vive les mariés de juin sous la pluie', 'un autre secret bien gardé']) {
      expect(JSON.stringify(overview.body)).not.toContain(text);
      expect(JSON.stringify(s.db.prepare('SELECT * FROM publish_locks').all())).not.toContain(text);
    }
  });
});

describe('Tout télécharger', () => {
  it('publishes a ZIP of the photos with the event, makes it again when they change, and seals it with the password', async () => {
    t = await startSimApp({ publish: { settleMs: 0, zipSettleMs: 0 } });
    const s = t;
    expect((await request(s.app).post('/api/admin/events').set('Cookie', s.cookie).send({ name: 'Fête <Été>' })).status).toBe(201);
    await s.sim.capture();
    await s.sim.capture();
    await s.services.indexer.rescan();
    root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-zip-'));
    const folder = await publishToFolder(s, root);
    const zipOf = (html: string): string => /<a class="btn zip" href="(zip\/[^"]+)" download="Fete-Ete\.zip"/.exec(html)?.[1] ?? '';
    const first = zipOf(readFileSync(path.join(folder, 'index.html'), 'utf8'));
    expect(first).toMatch(/^zip\/[0-9a-f]{24}\.zip$/);
    expect(readFileSync(path.join(folder, 'index.html'), 'utf8')).toMatch(/Tout télécharger \(2 photos, [\d,]+ Mo\)/);
    const entries = await readZip(readFileSync(path.join(folder, first)));
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry.name).toMatch(/^Fete-Ete_.+\.jpg$/);
      expect(readableMedia(entry.data)).toBe('jpeg');
    }

    // A new photo: a new ZIP, the old one gone after the page stopped naming it.
    await s.sim.capture();
    await s.services.indexer.rescan();
    s.services.publishing.queue.retryNow();
    await s.services.publishing.queue.whenIdle();
    s.services.publishing.queue.retryNow();
    await s.services.publishing.queue.whenIdle();
    const second = zipOf(readFileSync(path.join(folder, 'index.html'), 'utf8'));
    expect(second).not.toBe(first);
    expect(await readZip(readFileSync(path.join(folder, second)))).toHaveLength(3);
    expect(walk(folder).filter((f) => f.startsWith('zip/'))).toEqual([second]);

    // With a password the ZIP is sealed like the photos, and the sealed list offers it.
    expect(
      (
        await request(s.app)
          .put('/api/admin/publish/events/fete-ete')
          .set('Cookie', s.cookie)
          .send({ password: 'ouvre-toi sésame des fêtes' })
      ).status,
    ).toBe(200);
    await s.services.publishing.queue.whenIdle();
    s.services.publishing.queue.retryNow();
    await s.services.publishing.queue.whenIdle();
    const html = readFileSync(path.join(folder, 'index.html'), 'utf8');
    const lock = lockOf(html);
    const list = JSON.parse(open(lock, 'ouvre-toi sésame des fêtes', Buffer.from(lock.sealed, 'base64')).toString('utf8')) as SealedList & {
      zip: { name: string; as: string; label: string };
    };
    expect(list.zip.name).toMatch(/^zip\/[A-Za-z0-9_-]{27}\.bin$/);
    expect(list.zip.as).toBe('Fete-Ete.zip');
    expect(list.zip.label).toMatch(/^Tout télécharger \(3 photos, /);
    const sealed = readFileSync(path.join(folder, list.zip.name));
    expect(sealed.subarray(0, 2).toString('latin1')).not.toBe('PK');
    expect(await readZip(open(lock, 'ouvre-toi sésame des fêtes', sealed))).toHaveLength(3);
    expect(walk(folder).filter((f) => f.startsWith('zip/'))).toEqual([list.zip.name]);
  });
});
