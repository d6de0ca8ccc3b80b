import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A stand-in for gh: the run's ended jobs and its fleet artifacts as the API (filtered by --jq)
 * would list them, from files the test writes; an artifact's zip from its folder.
 */
const GH = `#!/bin/sh
case "$2" in
  */jobs\\?*) cat "$FAKE_GH/ended" 2>/dev/null ;;
  */runs/*/artifacts\\?*) cat "$FAKE_GH/reported" 2>/dev/null ;;
  */artifacts/*/zip) id=\${2%/zip}; id=\${id##*/}; cat "$FAKE_GH/$id.zip" ;;
  *) exit 1 ;;
esac
`;

interface Run {
  booths: string[];
  wait?: string;
  build?: string;
  rollback?: boolean;
  /** Booths whose job uploaded a row, with that row. */
  rows?: Record<string, string>;
  /** Jobs that ended: their name and conclusion. */
  ended?: [string, string][];
}

function summary(run: Run): { summary: string; out: string; status: number | null } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleet-summary-'));
  dirs.push(dir);
  const fake = path.join(dir, 'gh-data');
  const bin = path.join(dir, 'bin');
  mkdirSync(fake);
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'gh'), GH);
  chmodSync(path.join(bin, 'gh'), 0o755);
  let id = 100;
  const reported: string[] = [];
  for (const [booth, row] of Object.entries(run.rows ?? {})) {
    const art = path.join(dir, `art-${booth}`);
    mkdirSync(art);
    writeFileSync(path.join(art, 'fleet-row.md'), `${row}\n`);
    spawnSync('zip', ['-q', '-j', path.join(fake, `${++id}.zip`), path.join(art, 'fleet-row.md')]);
    reported.push(`${id} fleet-${booth}`);
  }
  writeFileSync(path.join(fake, 'reported'), reported.map((l) => `${l}\n`).join(''));
  writeFileSync(path.join(fake, 'ended'), (run.ended ?? []).map(([n, c]) => `${n}\t${c}\n`).join(''));
  const file = path.join(dir, 'summary.md');
  const work = path.join(dir, 'work');
  mkdirSync(work);
  const result = spawnSync('bash', [path.join(repo, 'scripts/fleet-summary.sh')], {
    cwd: work,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: `${bin}:/usr/bin:/bin`,
      FAKE_GH: fake,
      GH_REPO: 'owner/repo',
      RUN_ID: '7',
      BOOTHS: JSON.stringify(run.booths),
      WAIT_MINUTES: run.wait ?? '15',
      BUILD_RESULT: run.build ?? 'success',
      ROLLBACK: run.rollback ? 'true' : 'false',
      GITHUB_STEP_SUMMARY: file,
    },
  });
  return { summary: readFileSync(file, 'utf8'), out: result.stdout + result.stderr, status: result.status };
}

const ROW_A = '| salle-a | 0.2.0-gbbbbbbb | 2026-11-26T18:00:00Z | installed | 2026-11-26T18:20:12Z | idle | installed |';

describe("the run's fleet table", () => {
  it('one row per booth named: the rows that arrived, a job that ended without one said at once, and no wait at all once every booth is accounted for', () => {
    const {
      summary: table,
      status,
      out,
    } = summary({
      booths: ['salle-a', 'salle-b'],
      rows: { 'salle-a': ROW_A },
      ended: [
        ['deploy (salle-a)', 'success'],
        ['deploy (salle-b)', 'failure'],
      ],
    });
    expect(status, out).toBe(0);
    expect(table.trim().split('\n')).toEqual([
      '| Booth | Version | Release date | Last deploy | When | Event | Detail |',
      '|---|---|---|---|---|---|---|',
      ROW_A,
      '| salle-b | | | no report | | | its job ended (failure) without a fleet row: see its log |',
    ]);
  });

  it('a booth that never answers gets its row once the wait is over (none here), and a failed build sends nothing and waits for nothing', () => {
    const off = summary({ booths: ['salle-c'], wait: '0' });
    expect(off.status, off.out).toBe(0);
    expect(off.summary).toContain('| salle-c | | | no report within 0 min | | | off, or still installing');
    const failed = summary({ booths: ['salle-a', 'salle-b'], build: 'failure' });
    expect(failed.status, failed.out).toBe(0);
    expect(failed.summary).toContain(
      '| salle-a | | | not deployed | | | the build did not succeed (failure): nothing was sent to the booths |',
    );
    expect(failed.summary).toContain('| salle-b | | | not deployed |');
    // A rollback builds nothing: its table is the booths' rows.
    const back = summary({ booths: ['salle-a'], build: 'skipped', rollback: true, rows: { 'salle-a': ROW_A } });
    expect(back.summary).toContain(ROW_A);
  });

  it('a wait that is not a number of minutes, or longer than the job may run, is said and bounded: the table is always written', () => {
    const words = summary({ booths: ['salle-a'], wait: '15m', rows: { 'salle-a': ROW_A } });
    expect(words.status, words.out).toBe(0);
    expect(words.out).toContain('FLEET_WAIT_MINUTES must be a number of minutes, not "15m": 15 are used');
    expect(words.summary).toContain(ROW_A);
    const long = summary({ booths: ['salle-a'], wait: '90', rows: { 'salle-a': ROW_A } });
    expect(long.out).toContain('Waiting up to 20 min');
    expect(long.summary).toContain(ROW_A);
  });
});
