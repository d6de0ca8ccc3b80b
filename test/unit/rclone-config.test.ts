import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { obscure, renderRcloneConfig, reveal } from '../../server/publish/rclone-config.js';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-rclone-conf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLES = ['hunter2', 'pässwörd with spaces', ":webdav,bearer_token_command='touch x':", 'x'.repeat(256), '🔑=,:#;"\''];

describe('rclone obscure, done by Boothdeck', () => {
  it('is what the real `rclone reveal` reads back, and reads back what `rclone obscure` wrote', async () => {
    for (const plain of SAMPLES) {
      const mine = obscure(plain);
      expect(mine).not.toContain(plain);
      expect(obscure(plain)).not.toBe(mine);
      expect((await run('rclone', ['reveal', mine])).stdout.replace(/\n$/, '')).toBe(plain);
      const theirs = (await run('rclone', ['obscure', plain])).stdout.trim();
      expect(reveal(theirs)).toBe(plain);
    }
  });
});

describe('the rclone file Boothdeck writes', () => {
  it('holds one remote with the fields given, as rclone itself reads it', async () => {
    const file = path.join(dir, 'webdav.conf');
    const password = ":webdav,bearer_token_command='touch x':";
    writeFileSync(
      file,
      renderRcloneConfig({ type: 'webdav', url: 'https://cloud.example.com/dav', vendor: 'nextcloud', user: 'booth', path: 'g' }, password),
    );
    const dump = JSON.parse((await run('rclone', ['config', 'dump', '--config', file])).stdout) as Record<string, Record<string, string>>;
    expect(Object.keys(dump)).toEqual(['boothdeck']);
    const remote = dump.boothdeck ?? {};
    expect(Object.keys(remote).sort()).toEqual(['pass', 'type', 'url', 'user', 'vendor']);
    expect(remote).toMatchObject({ type: 'webdav', url: 'https://cloud.example.com/dav', vendor: 'nextcloud', user: 'booth' });
    expect((await run('rclone', ['reveal', remote.pass ?? ''])).stdout.trim()).toBe(password);
  });

  it('an S3 remote never takes credentials from the environment', async () => {
    const file = path.join(dir, 's3.conf');
    writeFileSync(
      file,
      renderRcloneConfig(
        { type: 's3', provider: 'AWS', endpoint: '', region: 'eu-west-3', access_key_id: 'AKIA1', bucket: 'b', path: '' },
        'secretKEY1234567',
      ),
    );
    const dump = JSON.parse((await run('rclone', ['config', 'dump', '--config', file])).stdout) as Record<string, Record<string, string>>;
    expect(dump.boothdeck).toEqual({
      type: 's3',
      provider: 'AWS',
      env_auth: 'false',
      access_key_id: 'AKIA1',
      secret_access_key: 'secretKEY1234567',
      region: 'eu-west-3',
    });
  });

  it('refuses to write a value that would start another line, even if a check upstream missed it', () => {
    expect(() =>
      renderRcloneConfig({ type: 'webdav', url: 'https://x', vendor: 'other', user: 'a\nbearer_token_command = touch x', path: '' }, null),
    ).toThrow(/another line/);
    expect(() => renderRcloneConfig({ type: 'webdav', url: '[boothdeck]', vendor: 'other', user: 'a', path: '' }, null)).toThrow();
  });
});
