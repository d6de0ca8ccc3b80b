import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const modules = path.join(repo, 'node_modules');
const ALL = ['better-sqlite3', 'sharp', 'i2c-bus', 'rpi-ws281x-native'];

let release: string;
beforeEach(() => {
  release = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-release-'));
  // The check loads the modules as a user who is not root: that user must be able to read them.
  chmodSync(release, 0o755);
  // This run's own TMPDIR (test/support's global setup) is private to root; the system's /tmp is not touched.
  if (path.basename(os.tmpdir()).startsWith('boothdeck-vitest-run-')) chmodSync(os.tmpdir(), 0o755);
});
afterEach(() => rmSync(release, { recursive: true, force: true }));

/**
 * An electron-builder output folder made of this checkout's own modules, with Node standing in
 * for the packaged Electron (both run `-e` scripts; Node ignores ELECTRON_RUN_AS_NODE).
 */
function fakePackage(present: string[]): void {
  const unpacked = path.join(release, 'linux-arm64-unpacked');
  const asar = path.join(unpacked, 'resources/app.asar/node_modules');
  const asarUnpacked = path.join(unpacked, 'resources/app.asar.unpacked/node_modules');
  mkdirSync(path.join(asarUnpacked, '@img'), { recursive: true });
  mkdirSync(asar, { recursive: true });
  symlinkSync(process.execPath, path.join(unpacked, 'boothdeck'));
  for (const name of present) {
    symlinkSync(path.join(modules, name), path.join(asar, name));
    symlinkSync(path.join(modules, name), path.join(asarUnpacked, name));
  }
  // sharp's addon lives in its platform package; this machine's stands in for linux-arm64.
  const platform = readdirSync(path.join(modules, '@img')).find((d) => /^sharp-linux-/.test(d) && !d.includes('libvips'));
  symlinkSync(path.join(modules, '@img', platform!), path.join(asarUnpacked, '@img/sharp-linux-arm64'));
  symlinkSync(path.join(modules, '@img'), path.join(asar, '@img'));
}

const check = (maxGlibc = '9.99') =>
  spawnSync('sh', [path.join(repo, 'scripts/check-package.sh'), release], {
    encoding: 'utf8',
    env: { ...process.env, MAX_GLIBC: maxGlibc },
  });

describe('scripts/check-package.sh', () => {
  it('passes a package holding every native module, each loadable', () => {
    fakePackage(ALL);
    const result = check();
    expect(result.stdout).toContain('Package check passed');
    expect(result.status).toBe(0);
    // As the booth's unit does: never as root, even where the check itself runs as root (CI).
    expect(result.stdout).toMatch(/loading as uid (\d+)/);
    expect(result.stdout).not.toContain('loading as uid 0\n');
  });

  it('fails the build when a native module is missing from the package', () => {
    fakePackage(ALL.filter((m) => m !== 'i2c-bus'));
    const result = check();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('FAIL: i2c-bus is missing from the package');
  });

  it('fails the build when a binary needs a newer glibc than the booth has', () => {
    fakePackage(ALL);
    const result = check('2.0');
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/better_sqlite3\.node needs glibc [\d.]+, the booth has 2\.0/);
  });
});

describe('build-info.json, written at packaging', () => {
  it('is packed beside package.json and names the build the dashboard shows', async () => {
    const builder = readFileSync(path.join(repo, 'electron-builder.yml'), 'utf8');
    expect(builder).toMatch(/^beforePack: \.\/scripts\/build-info\.mjs$/m);
    expect(builder).toMatch(/^ {2}- build-info\.json$/m);
    const { buildInfo } = (await import(pathToFileURL(path.join(repo, 'scripts/build-info.mjs')).href)) as {
      buildInfo: (env: NodeJS.ProcessEnv, now: Date) => { version: string; commit: string; build: string };
    };
    const info = buildInfo({ ...process.env, GITHUB_SHA: '1a2b3c4d5e6f', GITHUB_RUN_ID: '42' }, new Date('2026-11-25T10:00:00.500Z'));
    expect(info).toEqual({
      version: '0.1.0-g1a2b3c4',
      commit: '1a2b3c4d5e6f',
      built_at: '2026-11-25T10:00:00Z',
      build: '0.1.0-g1a2b3c4 (2026-11-25T10:00:00Z, run 42)',
    });
  });
});
