import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeRclone } from '../../server/publish/rclone.fake.js';
import { startSimApp, type SimApp } from '../support/sim-app.js';

const booths: SimApp[] = [];
afterEach(async () => {
  for (const b of booths.splice(0)) await b.close();
});

async function booth(): Promise<SimApp> {
  const b = await startSimApp({ rclone: new FakeRclone() });
  booths.push(b);
  return b;
}
const call = (b: SimApp, method: 'get' | 'put' | 'post', p: string, body?: object) =>
  request(b.app)[method](`/api/admin${p}`).set('Cookie', b.cookie).send(body);

const DAV = { type: 'webdav', url: 'https://cloud.example.com/dav', vendor: 'nextcloud', user: 'borne', path: 'Galeries' };

describe('publishing settings in the backup', () => {
  it('carry everything but the password, and set up another booth of the fleet', async () => {
    const a = await booth();
    const saved = await call(a, 'put', '/publish/settings', {
      destination: { ...DAV, password: 'Secret-Du-Parc' },
      public_base_url: 'https://photos.example.com',
      booth_name: 'borne-a',
      language: 'en',
      enabled: true,
      colors: { background: '#ffffff', text: '#222222', accent: '#c0392b' },
      company_index: 'FleetKey-0123456789abc',
    });
    expect(saved.status).toBe(200);
    const backup = (await call(a, 'get', '/backup')).body as { publish: { destination: object } };
    expect(JSON.stringify(backup)).not.toContain('Secret-Du-Parc');
    expect(backup.publish).toEqual({
      enabled: true,
      destination: DAV,
      public_base_url: 'https://photos.example.com',
      booth_name: 'borne-a',
      language: 'en',
      // The fleet shares its look and its index: every booth restored from this file writes into the same one.
      colors: { background: '#ffffff', text: '#222222', accent: '#c0392b' },
      company_index: 'FleetKey-0123456789abc',
    });

    const b = await booth();
    expect((await call(b, 'post', '/backup', backup)).status).toBe(200);
    const restored = (await call(b, 'get', '/publish/settings')).body as { settings: object };
    expect(restored.settings).toEqual({ ...backup.publish, destination: { ...DAV, password_set: false } });
  });

  it('refuses a password in the file, or a remote the owner’s file does not list, and changes nothing', async () => {
    const b = await booth();
    await call(b, 'put', '/publish/settings', { destination: { type: 'local', path: '/srv/g' }, booth_name: 'b' });
    const before = (await call(b, 'get', '/publish/settings')).body;
    const good = (await call(b, 'get', '/backup')).body as { publish: object };
    const withPassword = await call(b, 'post', '/backup', {
      ...good,
      publish: { ...good.publish, destination: { ...DAV, password: 'x' } },
    });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.error.message).toContain('publish.destination.password');
    const unlisted = await call(b, 'post', '/backup', {
      ...good,
      publish: { ...good.publish, destination: { type: 'rclone', remote: 'absent', path: '', config: 'boothdeck' } },
    });
    expect(unlisted.status).toBe(400);
    expect(unlisted.body.error.message).toContain('destination.remote');
    expect((await call(b, 'get', '/publish/settings')).body).toEqual(before);
  });
});
