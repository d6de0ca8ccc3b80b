import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { reveal } from '../../server/publish/rclone-config.js';
import { FakeRclone } from '../../server/publish/rclone.fake.js';
import { buildTestApp, signIn } from '../support/app.js';

async function booth() {
  const rclone = new FakeRclone();
  const t = await buildTestApp({ rclone });
  const cookie = await signIn(t.app);
  const put = (body: object) => request(t.app).put('/api/admin/publish/settings').set('Cookie', cookie).send(body);
  const files = t.services.publishing.service.destinations.files;
  const pass = (): string | undefined => {
    const line = /^pass = (\S+)$/m.exec(readFileSync(files.generated, 'utf8'));
    return line?.[1] === undefined ? undefined : reveal(line[1]);
  };
  return { t, rclone, cookie, put, files, pass };
}

const DAV = {
  type: 'webdav',
  url: 'https://cloud.example.com/remote.php/dav/files/léa@example.com',
  vendor: 'nextcloud',
  user: 'léa',
  path: 'Galeries',
};

describe('a destination’s password', () => {
  it('is kept for the same place, forgotten for another address, cleared with null, and never answered', async () => {
    const b = await booth();
    const saved = await b.put({ destination: { ...DAV, password: 'first-secret' } });
    expect(saved.status).toBe(200);
    expect(saved.body.settings.destination).toEqual({ ...DAV, password_set: true });
    expect(JSON.stringify(saved.body)).not.toContain('first-secret');
    expect(statSync(b.files.generated).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(b.files.generated)).mode & 0o777).toBe(0o700);
    expect(b.pass()).toBe('first-secret');

    // Saved again without a password (another folder): kept.
    expect((await b.put({ destination: { ...DAV, path: 'Autre' } })).body.settings.destination.password_set).toBe(true);
    expect(b.pass()).toBe('first-secret');
    // Another server: the password is not sent there.
    const moved = await b.put({ destination: { ...DAV, url: 'https://evil.example.net/dav' } });
    expect(moved.body.settings.destination.password_set).toBe(false);
    expect(b.pass()).toBeUndefined();
    // Replaced, then cleared.
    await b.put({ destination: { ...DAV, password: 'second-secret' } });
    expect(b.pass()).toBe('second-secret');
    expect((await b.put({ destination: { ...DAV, password: null } })).body.settings.destination.password_set).toBe(false);
    expect(b.pass()).toBeUndefined();
    // No destination: Boothdeck's file goes.
    await b.put({ destination: { ...DAV, password: 'third' } });
    expect((await b.put({ destination: null })).body.settings.destination).toBeNull();
    expect(readdirSync(path.dirname(b.files.generated))).toEqual([]);
  });

  it('a folder or an own remote takes no password at all', async () => {
    const b = await booth();
    const res = await b.put({ destination: { type: 'local', path: '/srv/g', password: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('destination.password');
  });
});

describe('a remote of the owner’s rclone file', () => {
  it('is used by name only, and only if the file lists it', async () => {
    const b = await booth();
    b.rclone.remotes = ['booth-s3'];
    const missing = await b.put({ destination: { type: 'rclone', remote: 'other', path: 'g', config: 'user' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('destination.remote');
    const ok = await b.put({ destination: { type: 'rclone', remote: 'booth-s3', path: 'photos/g', config: 'user' } });
    expect(ok.status).toBe(200);
    expect(b.t.services.publishing.service.target()).toEqual({ configFile: null, root: 'booth-s3:photos/g' });
    await b.put({ destination: { type: 'rclone', remote: 'booth-s3', path: '', config: 'boothdeck' } });
    expect(b.t.services.publishing.service.target()).toEqual({ configFile: b.files.owner, root: 'booth-s3:' });
  });
});

describe('Tester with a destination typed but not saved', () => {
  it('uses a file of its own for the test, removed after, and changes nothing saved', async () => {
    const b = await booth();
    await b.put({ destination: { type: 'local', path: '/srv/g' } });
    const before = (await request(b.t.app).get('/api/admin/publish/settings').set('Cookie', b.cookie)).body as object;
    const res = await request(b.t.app)
      .post('/api/admin/publish/test')
      .set('Cookie', b.cookie)
      .send({ destination: { ...DAV, password: 'typed' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true });
    expect(readdirSync(path.dirname(b.files.generated))).toEqual(['boothdeck.conf']);
    expect((await request(b.t.app).get('/api/admin/publish/settings').set('Cookie', b.cookie)).body).toEqual(before);
  });
});
