import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { A, B, DB, NEW, OLD, liveMigrations, seedDatabase, seededBooths } from '../support/seeded-booth.js';

/** A booth running 0.1.0-gaaaaaaa on a real SQLite database at migration 9 (print queue included), copied by each case. */
const { boothFor } = seededBooths((booth) =>
  seedDatabase(
    booth,
    `CREATE TABLE guest_sessions (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, copies_used INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE print_jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, photo_id TEXT NOT NULL, copies INTEGER NOT NULL, source TEXT NOT NULL,
      session_id TEXT, event_id INTEGER, state TEXT NOT NULL, created_at INTEGER NOT NULL, queued_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
      started_at INTEGER, finished_at INTEGER, cups_job_id TEXT, error TEXT, error_detail TEXT, cleared INTEGER NOT NULL DEFAULT 0, client_address TEXT);`,
    true,
  ),
);

/** When a line of the deploy log was written (its stamp, to the second). */
function stampOf(log: string, text: string): number {
  const line = log.split('\n').find((l) => l.includes(text));
  if (!line) throw new Error(`no line with "${text}" in:\n${log}`);
  return Date.parse(line.slice(0, 20));
}

describe.concurrent('the watch window after the switch', { timeout: 240_000 }, () => {
  it('a release that answers, then dies 8 s after each start, is rolled back within the watch window + 20 s; the fleet page says watching, then rolled back', async (context) => {
    const { expect } = context;
    const booth = await boothFor(context);
    const remote = path.join(booth.root, 'online-gallery/fleet');
    mkdirSync(remote, { recursive: true });
    writeFileSync(booth.home('.config/boothdeck/fleet.env'), `BOOTHDECK_BOOTH_NAME=salle-a\nBOOTHDECK_FLEET_REMOTE=${remote}\n`);
    const seen = new Set<string>();
    const page = (): string | undefined => {
      try {
        return (JSON.parse(readFileSync(path.join(remote, 'fleet.json'), 'utf8')) as { booths: { last_outcome: string }[] }).booths[0]
          ?.last_outcome;
      } catch {
        return undefined;
      }
    };
    const deploying = booth.deploy([booth.build(NEW, 'dies-after:8')], { BOOTH_WATCH_SECONDS: '30', BOOTH_HEALTH_WAIT: '0.5' });
    let done = false;
    void deploying.finally(() => (done = true));
    while (!done) {
      const outcome = page();
      if (outcome) seen.add(outcome);
      await new Promise((r) => setTimeout(r, 100));
    }
    const { code, out } = await deploying;
    expect(code, out).toBe(1);
    const log = booth.deployLog();
    const answered = stampOf(log, `Boothdeck ${NEW} answers /healthz; watching it for 30 s`);
    const back = stampOf(log, `ROLLED BACK to ${A}, which answers /healthz again`);
    expect((back - answered) / 1000).toBeLessThanOrEqual(30 + 20);
    // Seen by the unit: the release died and systemd restarted it, inside the window.
    expect(out).toMatch(/FAILED during the watch window: the (unit is no longer running|release died and was restarted)/);
    expect(await booth.liveVersion()).toBe(OLD);
    expect(booth.link('current')).toBe(A);
    expect(existsSync(booth.home('boothdeck', B))).toBe(false);
    expect(seen).toContain('watching');
    await expect.poll(page, { timeout: 20_000 }).toBe('rolled-back');
    expect(booth.fleetEntry()).toMatchObject({
      version: OLD,
      last_outcome: 'rolled-back',
      detail: expect.stringContaining(`${NEW} failed`),
    });
  });

  it('a release that answers slowly (5 s a look) under the unit, but answers, is alive: it stays installed and is not blamed', async (context) => {
    const { expect } = context;
    const booth = await boothFor(context);
    const deploying = booth.deploy([booth.build(NEW)], { BOOTH_WATCH_SECONDS: '20', BOOTH_HEALTH_WAIT: '0.3' });
    try {
      expect(await booth.waitFor(() => booth.fleetEntry()?.last_outcome === 'watching', 60_000)).toBe(true);
      // From here every /healthz answer takes 5 s (the index and the kiosk busy the booth's first minute).
      writeFileSync(booth.home('.slow'), '');
      const { code, out } = await deploying;
      expect(code, out).toBe(0);
      expect(out).toContain(`Boothdeck ${NEW} stayed up for the watch window (20 s)`);
    } finally {
      rmSync(booth.home('.slow'), { force: true });
    }
    expect(await booth.liveVersion()).toBe(NEW);
    expect(booth.fleetEntry()).toMatchObject({ version: NEW, last_outcome: 'installed' });
    expect(existsSync(booth.home('boothdeck/failed', path.basename(B)))).toBe(false);
  });

  it('a release slow (5 s a look) from its very start is waited for, not rolled back: the start, then the watch window', async (context) => {
    const { expect } = context;
    const booth = await boothFor(context);
    // Run by the switch before each step: the booth turns slow just before the new release starts (after the guard's last look).
    const hook = path.join(booth.root, 'slow-hook');
    writeFileSync(hook, `#!/bin/sh\n[ "$1" != switched ] || : >"$FAKE_BOARD/.slow"\n`);
    chmodSync(hook, 0o755);
    try {
      const { code, out } = await booth.deploy([booth.build(NEW)], {
        BOOTH_WATCH_SECONDS: '12',
        BOOTH_HEALTH_WAIT: '0.3',
        BOOTHDECK_DEPLOY_STEP_HOOK: hook,
      });
      expect(existsSync(booth.home('.slow')), 'the hook ran').toBe(true);
      expect(code, out).toBe(0);
      expect(out).toContain(`Boothdeck ${NEW} answers /healthz; watching it for 12 s`);
      expect(out).toContain(`Boothdeck ${NEW} stayed up for the watch window (12 s)`);
    } finally {
      rmSync(booth.home('.slow'), { force: true });
    }
    expect(await booth.liveVersion()).toBe(NEW);
    expect(booth.link('current')).toBe(B);
  });

  it('a release that migrates the database, then dies in the window: rolled back with the snapshot, the print jobs queued meanwhile carried over, never only in a log', async (context) => {
    const { expect } = context;
    const booth = await boothFor(context);
    // Waiting when the release leaving is stopped (its snapshot keeps it queued), then printed under the new one.
    const before = new Database(booth.home(DB));
    before
      .prepare(
        "INSERT INTO print_jobs (photo_id, copies, source, state, created_at, queued_at, updated_at) VALUES ('photo-7', 1, 'admin', 'queued', 4000, 4000, 4000)",
      )
      .run();
    before.close();
    const deploying = booth.deploy([booth.build(NEW, 'dies-after:6', { knows: 10, migrate: '10:0' })], {
      BOOTH_WATCH_SECONDS: '30',
      BOOTH_HEALTH_WAIT: '0.3',
    });
    // While it is watched, a guest prints under the new release.
    expect(await booth.waitFor(() => booth.fleetEntry()?.last_outcome === 'watching', 60_000)).toBe(true);
    const db = new Database(booth.home(DB));
    db.prepare("INSERT INTO guest_sessions VALUES ('guest-1', 1000, 2)").run();
    db.prepare(
      "INSERT INTO print_jobs (photo_id, copies, source, session_id, event_id, state, created_at, queued_at, updated_at) VALUES ('photo-42', 2, 'guest', 'guest-1', NULL, 'queued', 5000, 5000, 5000)",
    ).run();
    db.prepare(
      "UPDATE print_jobs SET state = 'done', started_at = 6000, finished_at = 6100, cups_job_id = 'PDF-9' WHERE photo_id = 'photo-7'",
    ).run();
    db.close();
    const { code, out } = await deploying;
    expect(code, out).toBe(1);
    expect(out).toMatch(/not backward compatible \(10:0\): the database as it left it goes back with it/);
    expect(out).toContain('Print jobs queued since the snapshot, carried into the restored database');
    expect(out).toContain('photo photo-42, 2 copies (queued)');
    expect(liveMigrations(booth).at(-1)).toBe('9:0');
    expect(await booth.liveVersion()).toBe(OLD);
    const carried = readdirSync(booth.home('.config/Boothdeck/data/carry-over'));
    expect(carried).toHaveLength(1);
    const file = JSON.parse(readFileSync(booth.home('.config/Boothdeck/data/carry-over', carried[0]!), 'utf8'));
    expect(file.jobs).toEqual([expect.objectContaining({ photo_id: 'photo-42', copies: 2, state: 'queued', session_id: 'guest-1' })]);
    expect(file.sessions).toEqual([{ id: 'guest-1', created_at: 1000, copies_used: 2 }]);
    // Printed under the release rolled back: the restored database, which has it queued, must not print it again.
    expect(file.settled).toEqual([expect.objectContaining({ photo_id: 'photo-7', state: 'done', cups_job_id: 'PDF-9' })]);
    expect(out).toContain('photo photo-7, 1 copies (done since the snapshot)');
    // The replaced database is kept for a look.
    expect(readdirSync(booth.home('.config/Boothdeck/data/replaced-databases')).length).toBe(1);
  });
});
