import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBooth, until, type Booth } from './support/booth.js';

let b: Booth;
beforeAll(async () => {
  b = await startBooth('connection');
  expect((await b.operator.post('/api/admin/events', { name: 'Contrat' })).status).toBe(201);
});
afterAll(async () => {
  await b?.close();
});

const idsOf = (photos: { id: string }[]): string[] => photos.map((p) => p.id);

describe('the link to the capture app', () => {
  it('connects, follows its stream and shows the version it announces', async () => {
    const status = await until(
      () => b.operator.get('/api/admin/dashboard/status'),
      (r) => r.body.capture?.version !== null,
      30_000,
      'the announced version',
    );
    expect(status.body.capture).toMatchObject({ url: b.app.url, reachable: true, stream: 'connected', version: '9.0.0' });
  });

  it('brings a guest’s photo from the booth’s button into both galleries', async () => {
    const run = await b.booth.job('image', 0);
    expect(run.ok).toBe(true);
    expect(run.states.slice(0, 2)).toEqual(['start→counting', 'counting→capture']);
    const [item] = run.inserted;
    expect(item?.media_type).toBe('image');
    const guest = b.guest();
    const shown = await until(
      () => guest.get('/api/gallery/photos'),
      (r) => idsOf(r.body.photos ?? []).includes(item?.id ?? ''),
      30_000,
      'the photo in the guests’ gallery',
    );
    expect(shown.status).toBe(200);
    const admin = await b.operator.get('/api/admin/photos');
    expect(idsOf(admin.body.photos)).toContain(item?.id);
    const thumb = await guest.get(shown.body.photos[0].urls.thumb);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    console.log(`A photo: button to last event ${run.ms} ms (indicative, on a shared machine)`);
  });
});

describe('the capture app down and back', () => {
  it('keeps the gallery serving while it is down, and reconnects once it is back', async () => {
    const guest = b.guest();
    const before = await guest.get('/api/gallery/photos');
    expect(before.body.photos.length).toBeGreaterThan(0);
    await b.app.stop();
    await until(
      () => b.service.services.captureLink.state,
      (s) => s !== 'connected',
      30_000,
      'Boothdeck to see the capture app gone',
    );
    const during = await guest.get('/api/gallery/photos');
    expect(during.status).toBe(200);
    expect(idsOf(during.body.photos)).toEqual(idsOf(before.body.photos));
    expect((await guest.get(during.body.photos[0].urls.thumb)).status).toBe(200);
    const dashboard = await b.operator.get('/api/admin/dashboard/status');
    expect(dashboard.body.capture).toMatchObject({ reachable: false });
    // Printing and downloads need the capture app: they say so, they do not hang.
    const download = await guest.get(during.body.photos[0].urls.download);
    expect([200, 503]).toContain(download.status);

    const back = performance.now();
    await b.app.start();
    await until(
      () => b.service.services.captureLink.state,
      (s) => s === 'connected',
      90_000,
      'Boothdeck to reconnect',
    );
    console.log(`Reconnected ${Math.round(performance.now() - back)} ms after the capture app was started again (its start included)`);
    const after = await b.operator.get('/api/admin/dashboard/status');
    expect(after.body.capture).toMatchObject({ reachable: true, stream: 'connected', version: '9.0.0' });
    expect(after.body.capture.last_restart_at).not.toBeNull();
    // And the booth works again.
    await b.booth.connected();
    const run = await b.booth.job('image', 0);
    expect(run.ok).toBe(true);
    await until(
      () => guest.get('/api/gallery/photos'),
      (r) => idsOf(r.body.photos ?? []).includes(run.inserted[0]?.id ?? ''),
      30_000,
      'the next photo in the gallery',
    );
  });
});
