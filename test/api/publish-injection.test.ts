import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { reveal } from '../../server/publish/rclone-config.js';
import { RcloneProcess } from '../../server/publish/rclone.process.js';
import { SettingsRepository } from '../../server/settings/settings.repository.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { buildTestApp, signIn, type TestApp } from '../support/app.js';
import { DANGEROUS_OPTIONS, OBSCURED_SECRET, payloads, VALID_DESTINATIONS } from '../support/rclone-injection.js';

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-injection-'));
const MARKER = path.join(scratch, 'pwned');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const hasLineBreak = (v: string): boolean => /[\r\n]/.test(v);

interface Booth {
  t: TestApp;
  cookie: string;
  put(body: unknown): request.Test;
  test(body?: unknown): request.Test;
  settings(): Promise<unknown>;
}

async function booth(system?: FakeSystem): Promise<Booth> {
  const t = await buildTestApp(system ? { system, rclone: new RcloneProcess(system) } : {});
  const cookie = await signIn(t.app);
  return {
    t,
    cookie,
    put: (body) =>
      request(t.app)
        .put('/api/admin/publish/settings')
        .set('Cookie', cookie)
        .send(body as object),
    test: (body = {}) =>
      request(t.app)
        .post('/api/admin/publish/test')
        .set('Cookie', cookie)
        .send(body as object),
    settings: async () => (await request(t.app).get('/api/admin/publish/settings').set('Cookie', cookie)).body as unknown,
  };
}

/** The `key = value` lines of Boothdeck's rclone file. */
function configLines(file: string): [string, string][] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('['))
    .map((l) => {
      const at = l.indexOf(' = ');
      return [l.slice(0, at), l.slice(at + 3)];
    });
}

describe('a destination that would make rclone run a program or read a file', () => {
  for (const [type, base] of Object.entries(VALID_DESTINATIONS)) {
    it(
      `${type}: every such option, in every field, is refused when saved and when tested, and nothing runs`,
      { timeout: 180_000 },
      async () => {
        const system = new FakeSystem();
        const b = await booth(system);
        const before = await b.settings();
        const inert: string[] = [];
        let tried = 0;
        for (const field of Object.keys(base).filter((k) => k !== 'type')) {
          for (const option of DANGEROUS_OPTIONS) {
            for (const payload of payloads(option, MARKER)) {
              if (field === 'password' && OBSCURED_SECRET[type] && !hasLineBreak(payload)) {
                inert.push(payload);
                continue;
              }
              const destination = { ...base, [field]: payload };
              for (const res of [await b.put({ destination }), await b.test({ destination })]) {
                expect(res.status, `${field} = ${JSON.stringify(payload)}`).toBe(400);
                expect(res.body.error.message).toContain(`destination.${field}`);
                expect(JSON.stringify(res.body)).not.toContain(option === 'config' ? 'config=' : option);
              }
              tried += 1;
            }
          }
        }
        expect(tried).toBeGreaterThan(100);
        expect(await b.settings()).toEqual(before);
        expect(system.calls).toEqual([]);

        // A password is written obscured, as rclone's `pass`: whatever it says, it is a password and nothing else.
        const generated = b.t.services.publishing.service.destinations.files.generated;
        for (const password of inert) {
          expect((await b.put({ destination: { ...base, password } })).status).toBe(200);
          const lines = configLines(generated);
          expect(lines.map(([k]) => k)).toEqual(
            type === 'webdav' ? ['type', 'url', 'vendor', 'user', 'pass'] : ['type', 'host', 'port', 'user', 'pass'],
          );
          expect(reveal(lines.find(([k]) => k === 'pass')?.[1] ?? '')).toBe(password);
          expect((await b.test()).status).toBe(200);
        }
        for (const call of system.calls) {
          expect(call.command).toBe('rclone');
          expect(call.args.join(' ')).not.toMatch(/touch|shadow|_command|_file|webdav,|sftp,/);
          expect(call.args[call.args.indexOf('--config') + 1]).toBe(generated);
          expect(call.args.filter((a) => a.includes(':')).every((a) => a.startsWith('boothdeck:'))).toBe(true);
        }
        if (existsSync(generated)) expect(statSync(generated).mode & 0o777).toBe(0o600);
      },
    );
  }

  it('a restored backup cannot bring a destination back: every payload is refused and nothing runs', { timeout: 120_000 }, async () => {
    const system = new FakeSystem();
    const b = await booth(system);
    expect((await b.put({ destination: VALID_DESTINATIONS.local })).status).toBe(200);
    const before = await b.settings();
    const good = (await request(b.t.app).get('/api/admin/backup').set('Cookie', b.cookie)).body as { settings: object };
    for (const [type, base] of Object.entries(VALID_DESTINATIONS)) {
      for (const option of DANGEROUS_OPTIONS) {
        for (const payload of payloads(option, MARKER).slice(0, 3)) {
          const publish = { destination: { ...base, path: payload }, remote: payload };
          for (const doc of [
            { ...good, settings: { ...good.settings, publish } },
            { ...good, publish },
          ]) {
            const res = await request(b.t.app).post('/api/admin/backup').set('Cookie', b.cookie).send(doc);
            expect(res.status, `${type} ${payload}`).toBe(400);
            expect(res.body.error.message).toContain('publish');
          }
        }
      }
    }
    // The backup as downloaded still restores, and leaves the publishing settings alone.
    expect((await request(b.t.app).post('/api/admin/backup').set('Cookie', b.cookie).send(good)).status).toBe(200);
    expect(await b.settings()).toEqual(before);
    expect(system.calls).toEqual([]);
  });

  it('with the real rclone, the marker file of `touch` is never created', { timeout: 60_000 }, async () => {
    // The control: this rclone does run a connection string's bearer_token_command.
    const control = path.join(scratch, 'control');
    await run('rclone', [
      'lsf',
      `:webdav,url='http://127.0.0.1:9/',bearer_token_command='touch ${control}':x`,
      '--config',
      '/dev/null',
      '--retries',
      '1',
      '--low-level-retries',
      '1',
    ]).catch(() => undefined);
    expect(existsSync(control)).toBe(true);

    const b = await booth();
    for (const type of ['webdav', 'sftp'] as const) {
      const base = { ...VALID_DESTINATIONS[type], ...(type === 'webdav' ? { url: 'http://127.0.0.1:9' } : { host: '127.0.0.1', port: 9 }) };
      for (const field of Object.keys(base).filter((k) => k !== 'type' && k !== 'password')) {
        for (const payload of payloads('bearer_token_command', MARKER).concat(payloads('ssh', MARKER))) {
          const destination = { ...base, [field]: payload };
          expect((await b.put({ destination })).status).toBe(400);
          expect((await b.test({ destination })).status).toBe(400);
        }
      }
      // The password holds the connection string: rclone gets it as a password, and the remote is unreachable.
      for (const password of [payloads('bearer_token_command', MARKER)[0], payloads('ssh', MARKER)[1]]) {
        expect((await b.put({ destination: { ...base, password } })).status).toBe(200);
        expect((await b.test()).body).toMatchObject({ ok: false, reason: 'unreachable' });
        expect((await b.test({ destination: { ...base, password } })).body).toMatchObject({ ok: false, reason: 'unreachable' });
      }
    }
    expect(existsSync(MARKER)).toBe(false);
  });

  it('an old free-text connection string is dropped at start, said in words, and never run', { timeout: 30_000 }, async () => {
    const b = await booth();
    const secret = 'hunter2-obscured';
    new SettingsRepository(b.t.db).set('publish', {
      enabled: true,
      remote: `:webdav,url='http://127.0.0.1:9/',user=booth,pass=${secret},bearer_token_command='touch ${MARKER}':galerie`,
      public_base_url: '',
      booth_name: 'booth',
      config: 'boothdeck',
      language: 'fr',
    });
    b.t.services.publishing.service.destinations.migrate(b.t.log);
    const answer = await request(b.t.app).get('/api/admin/publish/settings').set('Cookie', b.cookie);
    expect(answer.body).toMatchObject({ settings: { destination: null, enabled: true }, notice: 'destination_dropped' });
    expect(JSON.stringify(answer.body)).not.toContain(secret);
    expect(b.t.log.lines.some((l) => l.includes('connection string') && l.includes('without being run'))).toBe(true);
    expect(b.t.log.lines.join('\n')).not.toContain(secret);
    expect((await b.test()).status).toBe(409);
    // A pass of the queue, with publishing on: there is nowhere to publish to.
    b.t.services.publishing.queue.start();
    const idle = b.t.services.publishing.queue.whenIdle();
    b.t.clock.advance(0);
    await idle;
    await b.t.services.publishing.queue.stop();
    expect(b.t.services.publishing.service.overview().status.state).toBe('unconfigured');
    expect(existsSync(MARKER)).toBe(false);

    // A folder and a remote's name are kept, as typed destinations.
    const repo = new SettingsRepository(b.t.db);
    repo.set('publish', {
      enabled: false,
      remote: '/media/usb/galeries',
      public_base_url: '',
      booth_name: 'b',
      config: 'boothdeck',
      language: 'fr',
    });
    b.t.services.publishing.service.destinations.migrate(b.t.log);
    expect(((await b.settings()) as { settings: unknown }).settings).toMatchObject({
      destination: { type: 'local', path: '/media/usb/galeries', password_set: false },
    });
    repo.set('publish', {
      enabled: false,
      remote: 'booth-s3:photos/galeries',
      public_base_url: '',
      booth_name: 'b',
      config: 'user',
      language: 'fr',
    });
    b.t.services.publishing.service.destinations.migrate(b.t.log);
    expect((await b.settings()) as { settings: unknown; notice: unknown }).toMatchObject({
      settings: { destination: { type: 'rclone', remote: 'booth-s3', path: 'photos/galeries', config: 'user' } },
      notice: null,
    });
  });
});
