import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startWebdav, type WebdavServer } from '../support/rclone.js';
import { startTestService, type TestService } from '../support/service.js';

const PIN = '80417263';
const CAPTURE_PASSWORD = 'capture-Qx7-secret';
const DAV_PASSWORD = 'dav-Pa55-w0rd-1979';

let service: TestService | undefined;
let dav: WebdavServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await service?.close();
  await dav?.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir`, whole. */
function filesUnder(dir: string): { name: string; data: Buffer }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((n) => path.join(dir, n))
    .filter((f) => statSync(f).isFile())
    .map((f) => ({ name: f, data: readFileSync(f) }));
}

/**
 * The API answers a console and a guest can get, one of each (streams aside: they carry photo news
 * only; the pages are static files, their data comes from these).
 */
const GETS = (slug: string, photoId: string): string[] => [
  '/healthz',
  '/api/admin/session',
  '/api/admin/status',
  '/api/admin/actions',
  '/api/admin/actions/presets',
  '/api/admin/settings',
  '/api/admin/system/capture-restart',
  '/api/admin/dashboard/status',
  '/api/admin/logs?level=info&limit=500',
  '/api/admin/backup',
  '/api/admin/events',
  `/api/admin/events/${slug}/export.zip`,
  '/api/admin/photos',
  `/api/admin/photos/${photoId}/download`,
  '/api/admin/hardware/diagnostic',
  '/api/admin/print/queue',
  '/api/admin/print/summary',
  '/api/admin/gallery-link',
  '/api/admin/publish',
  '/api/admin/publish/settings',
  '/api/admin/publish/company-index.html',
  '/api/gallery/photos',
  '/api/gallery/session',
  '/api/gallery/online',
];

it(
  'after a full publishing round to WebDAV with a password, no answer, log, page, index, export or backup holds a secret',
  { timeout: 120_000 },
  async () => {
    service = await startTestService({ BOOTHDECK_ADMIN_PIN: PIN, BOOTHDECK_CAPTURE_PASSWORD: CAPTURE_PASSWORD });
    const s = service;
    const served = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-dav-'));
    dirs.push(served);
    dav = await startWebdav(served, undefined, { user: 'booth', pass: DAV_PASSWORD });
    const answers: { what: string; data: Buffer }[] = [];
    const call = async (method: string, p: string, body?: unknown, cookie = ''): Promise<Response> => {
      const res = await fetch(`${s.localUrl}${p}`, {
        method,
        headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const data = Buffer.from(await res.clone().arrayBuffer());
      answers.push({ what: `${method} ${p} ${res.status} ${JSON.stringify([...res.headers])}`, data });
      return res;
    };
    const signIn = await call('POST', '/api/admin/session', { pin: PIN });
    expect(signIn.status).toBe(204);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const admin = (method: string, p: string, body?: unknown) => call(method, p, body, cookie);

    expect((await admin('POST', '/api/admin/events', { name: 'Soirée secrète' })).status).toBe(201);
    const sim = s.simulator;
    if (!sim) throw new Error('the simulator is needed');
    for (let i = 0; i < 3; i++) await sim.capture();
    await expect.poll(() => s.services.photoRepository.count(), { timeout: 15_000 }).toBe(3);

    const destination = { type: 'webdav', url: dav.url, vendor: 'nextcloud', user: 'booth', path: 'galeries', password: DAV_PASSWORD };
    // A wrong password first: the test says why, and the log gets rclone's words.
    const wrong = await admin('POST', '/api/admin/publish/test', { destination: { ...destination, password: 'not-it' } });
    expect(await wrong.json()).toMatchObject({ ok: false, reason: 'auth' });
    const saved = await admin('PUT', '/api/admin/publish/settings', {
      destination,
      public_base_url: 'https://photos.example.com',
      booth_name: 'booth',
      enabled: true,
    });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { settings: { destination: object } }).settings.destination).toMatchObject({ password_set: true });
    expect(await (await admin('POST', '/api/admin/publish/test')).json()).toMatchObject({ ok: true });
    await expect.poll(() => s.services.publishing.service.overview().events[0]?.state, { timeout: 30_000 }).toBe('online');

    // The remote goes away while a photo arrives: the queue logs a warning with rclone's words, then catches up.
    const port = dav.port;
    await dav.stop();
    await sim.capture();
    await expect.poll(() => s.services.publishing.service.overview().status.state, { timeout: 30_000 }).toBe('waiting');
    dav = await startWebdav(served, port, { user: 'booth', pass: DAV_PASSWORD });
    s.services.publishing.queue.retryNow();
    await expect.poll(() => s.services.publishing.service.overview().events[0]?.photos_online, { timeout: 30_000 }).toBe(4);

    // Settings saved again without a password keep it, and the answer still says only that one is set.
    const { password: _kept, ...withoutPassword } = destination;
    const again = await admin('PUT', '/api/admin/publish/settings', { destination: withoutPassword });
    expect(((await again.json()) as { settings: { destination: object } }).settings.destination).toMatchObject({ password_set: true });

    const slug = s.services.events.list().events[0]?.slug ?? '';
    const photos = (await (await admin('GET', '/api/admin/photos')).json()) as { photos: { id: string }[] };
    const photoId = photos.photos[0]?.id ?? '';
    expect(slug).not.toBe('');
    expect(photoId).not.toBe('');
    for (const p of GETS(slug, photoId)) expect((await admin('GET', p)).status, p).toBe(200);

    const conf = readFileSync(s.services.publishing.service.destinations.files.generated, 'utf8');
    const obscured = /^pass = (\S+)$/m.exec(conf)?.[1] ?? '';
    expect(obscured).not.toBe('');
    expect(statSync(s.services.publishing.service.destinations.files.generated).mode & 0o777).toBe(0o600);

    const haystacks = [
      ...answers.map((a) => ({ name: a.what, data: Buffer.concat([Buffer.from(a.what), a.data]) })),
      ...filesUnder(path.join(s.dataDir, 'logs')),
      ...filesUnder(served),
      ...s.log.lines.map((l, i) => ({ name: `log line ${i}`, data: Buffer.from(l) })),
    ];
    expect(haystacks.filter((h) => h.name.includes('logs')).length).toBeGreaterThan(0);
    expect(s.log.lines.some((l) => l.includes('Publishing failed'))).toBe(true);
    expect(filesUnder(served).some((f) => f.name.endsWith('index.html'))).toBe(true);
    for (const secret of [DAV_PASSWORD, obscured, PIN, CAPTURE_PASSWORD]) {
      const found = haystacks.filter((h) => h.data.includes(secret)).map((h) => h.name);
      expect(found, `${secret} found`).toEqual([]);
    }
    // The event's token is its gallery's only key: rclone names the folder in its errors, the log never does.
    const token = s.services.publishing.service.overview().events[0]?.url?.split('/')[4] ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const logs = haystacks.filter((h) => h.name.startsWith('log line') || h.name.includes('logs'));
    expect(logs.filter((h) => h.data.includes(token)).map((h) => h.name)).toEqual([]);
    expect(s.log.lines.some((l) => l.includes('<token>'))).toBe(true);
  },
);
