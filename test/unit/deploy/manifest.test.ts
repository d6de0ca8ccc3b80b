import { describe, expect, it } from 'vitest';
import { parseManifest, parseRequest } from '../../../deploy/src/rules/manifest.js';
import { isToken, newRunId, versionOf } from '../../../deploy/src/rules/names.js';
import { parseEnvFile } from '../../../deploy/src/rules/env-file.js';
import { readSettings } from '../../../deploy/src/rules/settings.js';

const SHA = 'a'.repeat(64);
const FILE = 'Boothdeck-0.2.0-g1a2b3c4-arm64.AppImage';

describe('what the deploy reads from outside, checked before any of it is used', () => {
  it("reads the pipeline's boothdeck-release.txt", () => {
    expect(parseManifest(`version=0.2.0-g1a2b3c4\nfile=${FILE}\nsize=1234\nsha256=${SHA}\ndate=2026-11-26T18:00:00Z\n`)).toEqual({
      ok: true,
      value: { version: '0.2.0-g1a2b3c4', file: FILE, size: 1234, sha256: SHA, date: '2026-11-26T18:00:00Z' },
    });
  });

  it('refuses a manifest whole when a field is malformed, missing, or names another release', () => {
    const base = `version=0.2.0-g1a2b3c4\nfile=${FILE}\nsize=1234\nsha256=${SHA}\n`;
    expect(parseManifest(base.replace('size=1234', 'size=12e3'))).toEqual({ ok: false, problem: 'size is malformed' });
    expect(parseManifest(base.replace(`sha256=${SHA}`, 'sha256=ABC'))).toEqual({ ok: false, problem: 'sha256 is malformed' });
    expect(parseManifest(base.replace(`file=${FILE}`, 'file=../x'))).toEqual({ ok: false, problem: 'file is malformed' });
    expect(parseManifest(base.replace('version=0.2.0-g1a2b3c4', 'version=0.1.0'))).toMatchObject({
      ok: false,
      problem: `${FILE} is not the release of 0.1.0`,
    });
    expect(parseManifest(base.replace('size=1234\n', ''))).toMatchObject({ ok: false });
    expect(parseManifest(`${'#\n'.repeat(50)}${base}`)).toEqual({ ok: false, problem: 'more than 40 lines' });
  });

  it("reads the runner's request, and refuses one whose id could reach a shell or a path", () => {
    expect(parseRequest('action=rollback\nid=rollback-1\nforce=1\n')).toEqual({
      ok: true,
      value: { action: 'rollback', id: 'rollback-1', force: true },
    });
    expect(parseRequest('action=check\nid=c-1\nsize=99\nforce=0\n')).toEqual({
      ok: true,
      value: { action: 'check', id: 'c-1', force: false, size: 99 },
    });
    expect(parseRequest(`action=install\nid=i-1\nforce=0\nversion=0.2.0-g1a2b3c4\nfile=${FILE}\nsize=5\nsha256=${SHA}\n`)).toMatchObject({
      ok: true,
      value: { action: 'install', manifest: { file: FILE, size: 5 } },
    });
    expect(parseRequest('action=rollback\nid=x;touch${IFS}pwned\nforce=0\n')).toEqual({ ok: false, problem: 'id is malformed' });
    expect(parseRequest('action=format-disk\nid=x\n')).toEqual({ ok: false, problem: 'unknown action format-disk' });
    expect(parseRequest('action=check\nid=x\n')).toEqual({ ok: false, problem: 'a check needs a size' });
  });

  it('knows a release from its name, and a safe name from another', () => {
    expect(versionOf('releases/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage')).toBe('0.1.0-g1a2b3c4');
    expect(versionOf('Boothdeck--arm64.AppImage')).toBeUndefined();
    expect(versionOf('other.AppImage')).toBeUndefined();
    for (const bad of ['', '.hidden', '-rf', 'a/b', 'a b', 'x'.repeat(201)]) expect(isToken(bad), bad).toBe(false);
    expect(newRunId('0.2.0-g1', new Date('2026-11-26T18:00:00.123Z'), 42)).toBe('0.2.0-g1-20261126T180000Z-42');
  });

  it('reads settings files as systemd does, and the deploy settings from the environment first', () => {
    expect(parseEnvFile('# c\nBOOTHDECK_ADMIN_PIN="2468"\nBAD LINE\n9X=1\nPORT=8080\nPORT=9090\n')).toEqual({
      BOOTHDECK_ADMIN_PIN: '2468',
      PORT: '9090',
    });
    const s = readSettings(
      { BOOTHDECK_WATCH_SECONDS: '12', BOOTHDECK_HEALTH_WAIT: '0.5', BOOTHDECK_QUIET_MINUTES: 'soon' },
      { BOOTHDECK_WATCH_SECONDS: '90', BOOTHDECK_EVENT_HOURS: '6' },
    );
    expect(s).toMatchObject({ watchSeconds: 12, healthWaitMs: 500, quietMinutes: 30, eventHours: 6 });
  });
});
