import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTree } from '../../../deploy/src/booth/closed-copies.js';
import { copyDatabase } from '../../../deploy/src/booth/database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'closed-copies-'));
  dirs.push(dir);
  return dir;
}

const mode = (file: string): string => (statSync(file).mode & 0o777).toString(8);

describe('copies of the database are the booth user’s alone', () => {
  it('a copy is 0600 in a 0700 folder, whatever the mode of the database it copies', () => {
    const root = scratch();
    const live = path.join(root, 'live');
    mkdirSync(live, { mode: 0o755 });
    writeFileSync(path.join(live, 'boothdeck.sqlite'), 'pin hashes', { mode: 0o644 });
    writeFileSync(path.join(live, 'boothdeck.sqlite-wal'), 'more', { mode: 0o644 });
    const to = path.join(root, 'trial', 'data');
    expect(copyDatabase(live, to)).toBe(true);
    expect([mode(path.join(root, 'trial')), mode(to)]).toEqual(['700', '700']);
    expect([mode(path.join(to, 'boothdeck.sqlite')), mode(path.join(to, 'boothdeck.sqlite-wal'))]).toEqual(['600', '600']);
    // The database copied is left as it was: it is the running release's.
    expect(mode(path.join(live, 'boothdeck.sqlite'))).toBe('644');
  });

  it('a copy made into a folder left open is closed too', () => {
    const root = scratch();
    const live = path.join(root, 'live');
    mkdirSync(live);
    writeFileSync(path.join(live, 'boothdeck.sqlite'), 'pin hashes');
    const to = path.join(root, 'open');
    mkdirSync(to, { mode: 0o755 });
    copyDatabase(live, to);
    expect(mode(to)).toBe('700');
  });

  it('closes a tree of old snapshots (chmod -R go-rwx), keeps the owner’s rights, and never follows a link out of it', () => {
    const root = scratch();
    const snapshots = path.join(root, 'snapshots');
    const old = path.join(snapshots, 'Boothdeck-0.0.9-g0000000-arm64.AppImage');
    mkdirSync(old, { recursive: true, mode: 0o755 });
    writeFileSync(path.join(old, 'boothdeck.sqlite'), 'password in clear', { mode: 0o644 });
    writeFileSync(path.join(old, 'notes'), '', { mode: 0o755 });
    const outside = path.join(root, 'outside.txt');
    writeFileSync(outside, '', { mode: 0o644 });
    symlinkSync(outside, path.join(old, 'link'));
    expect(closeTree(snapshots)).toEqual([]);
    expect([mode(snapshots), mode(old), mode(path.join(old, 'boothdeck.sqlite')), mode(path.join(old, 'notes'))]).toEqual([
      '700',
      '700',
      '600',
      '700',
    ]);
    expect(mode(outside)).toBe('644');
  });

  it('a folder that is not there is nothing to close', () => {
    expect(closeTree(path.join(scratch(), 'none'))).toEqual([]);
  });
});
