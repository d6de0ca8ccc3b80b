import Database from 'better-sqlite3';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { type FakeBooth } from '../support/fake-booth.js';
import { A, B, DB, NEW, OLD, liveMigrations, seedDatabase, seededBooths } from '../support/seeded-booth.js';

/** A booth running 0.1.0-gaaaaaaa on a real SQLite database at migration 9, copied by each case. */
const { boothFor, original } = seededBooths((booth) =>
  seedDatabase(
    booth,
    `CREATE TABLE print_jobs (id INTEGER PRIMARY KEY, photo_id TEXT NOT NULL, copies INTEGER NOT NULL, source TEXT NOT NULL DEFAULT 'guest',
      state TEXT NOT NULL, created_at INTEGER NOT NULL DEFAULT 0);`,
  ),
);

/** Each file and folder under DIR (DIR included) that other users may read, write or enter, with its mode. */
function openToOthers(dir: string): string[] {
  const all = [dir, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f))];
  return all
    .filter((f) => (statSync(f).mode & 0o077) !== 0)
    .map((f) => `${path.relative(dir, f) || '.'} ${(statSync(f).mode & 0o777).toString(8)}`);
}

/** The modes the trial instance found on what it was given: its folder, its data folder, the files in it. */
function trialModes(booth: FakeBooth): [string, string][] {
  const lines = readFileSync(booth.home('.trial-modes'), 'utf8').trim().split('\n');
  return lines.map((line, i) => {
    const [mode, file] = line.split(' ') as [string, string];
    return [mode, i === 0 ? 'trial folder' : i === 1 ? 'data' : path.basename(file)];
  });
}

const starts = (booth: FakeBooth): number => booth.calls().filter((c) => c === 'systemctl --user start boothdeck.service').length;

/** When a line of the deploy log was written (its stamp, to the second). */
function stampOf(log: string, text: string): number {
  const line = log.split('\n').find((l) => l.includes(text));
  if (!line) throw new Error(`no line with "${text}" in:\n${log}`);
  return Date.parse(line.slice(0, 20));
}

/** A drop-in of the booth owner's: the unit restarts its release after that many seconds. */
function restartAfter(booth: FakeBooth, seconds: number): void {
  mkdirSync(booth.home('.config/systemd/user/boothdeck.service.d'), { recursive: true });
  writeFileSync(booth.home('.config/systemd/user/boothdeck.service.d/restart.conf'), `[Service]\nRestartSec=${seconds}\n`);
}

/** The running release's process dies, as a crash would: the unit restarts it after RestartSec. */
function crashRunning(booth: FakeBooth): void {
  const pid = booth.systemd.show('boothdeck.service').mainPid;
  process.kill(pid, 'SIGKILL');
}

describe.concurrent(
  'a fleet of booths: the database with the release, crash loops, the guard, pulls, the fleet page',
  { timeout: 180_000 },
  () => {
    it('a release that migrates the database then fails live: the booth ends on the old release and its database, answering', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      // The live database as the release leaving keeps it (0644 under its umask).
      chmodSync(booth.home(DB), 0o644);
      const { code, out } = await booth.deploy([booth.build(NEW, 'live-crash', { knows: 10, migrate: '10:0' })]);
      expect(code).toBe(1);
      // The trial's copy (PIN hashes) was closed to other users before the release started on it.
      const [folder, data, ...files] = trialModes(booth);
      expect([folder, data]).toEqual([
        ['700', 'trial folder'],
        ['700', 'data'],
      ]);
      expect(files).toContainEqual(['600', 'boothdeck.sqlite']);
      expect(files.filter(([mode]) => mode !== '600')).toEqual([]);
      expect(out).toContain('Database snapshot of Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage kept');
      expect(out).toMatch(/not backward compatible \(10:0\)/);
      expect(out).toContain('put back the snapshot of Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
      expect(out).toContain(`ROLLED BACK to ${A}, which answers /healthz again`);
      expect(booth.link('current')).toBe(A);
      expect(await booth.liveVersion()).toBe(OLD);
      expect(liveMigrations(booth).at(-1)).toBe('9:0');
      // The failed release is not kept, and the database it left is kept aside for a look.
      expect(existsSync(booth.home('boothdeck', B))).toBe(false);
      expect(readdirSync(booth.home('.config/Boothdeck/data/replaced-databases'))).toHaveLength(1);
      // Its snapshot, and the replaced database (the new release's, which held the live one's secrets), are the booth user's alone.
      expect(openToOthers(booth.home('boothdeck/snapshots'))).toEqual([]);
      expect(openToOthers(booth.home('.config/Boothdeck/data/replaced-databases'))).toEqual([]);
      expect(statSync(booth.home('boothdeck/snapshots', path.basename(A), 'boothdeck.sqlite')).mode & 0o777).toBe(0o600);
    });

    it('a crash loop is seen from the unit and rolled back within 20 s, long before /healthz would give up', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      // /healthz alone would wait 2000 × 0.05 s = 100 s.
      const { code, out } = await booth.deploy([booth.build(NEW, 'live-crash')], {
        BOOTH_HEALTH_ATTEMPTS: '2000',
        BOOTH_HEALTH_WAIT: '0.05',
      });
      expect(code).toBe(1);
      expect(out).toContain('Crash loop: the unit died at start (activating/auto-restart');
      const log = booth.deployLog();
      expect((stampOf(log, `ROLLED BACK to ${A}, which answers`) - stampOf(log, `Starting Boothdeck ${NEW}`)) / 1000).toBeLessThan(20);
      expect(await booth.liveVersion()).toBe(OLD);
    });

    it('a deploy killed right after starting a crash-looping release: recover goes back within 20 s, and marks nothing healthy that is not', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      restartAfter(booth, 0.3);
      copyFileSync(booth.build(NEW, 'live-crash'), booth.home('boothdeck', B));
      const journal = { run: 'killed-1', kind: 'install', from: A, to: B, plan: 'live', step: 'starting', force: false, begun: '' };
      writeFileSync(booth.home('boothdeck/deploy.state'), JSON.stringify(journal));
      await booth.systemd.stopUnit('boothdeck.service');
      rmSync(booth.home('boothdeck/current'));
      symlinkSync(B, booth.home('boothdeck/current'));
      await booth.systemd.startUnit('boothdeck.service');
      await booth.waitFor(() => booth.systemd.show('boothdeck.service').restarts > 0, 10_000);
      const started = Date.now();
      const { code, out } = await booth.onBooth('boothdeck-deploy recover', {
        BOOTHDECK_HEALTH_ATTEMPTS: '2000',
        BOOTHDECK_HEALTH_WAIT: '0.05',
      });
      expect(code, out).toBe(1);
      expect((Date.now() - started) / 1000).toBeLessThan(20);
      expect(out).toContain('An earlier deploy stopped at "starting"');
      expect(out).toContain('Crash loop: the unit died at start');
      expect(out).toContain(`ROLLED BACK to ${A}, which answers /healthz again`);
      expect(booth.link('current')).toBe(A);
      expect(await booth.liveVersion()).toBe(OLD);
      expect(existsSync(booth.home('boothdeck/healthy', path.basename(B)))).toBe(false);
    });

    it('a /healthz slower than 3 s during an event: refused before any upload, and when the pull timer fires, deferred before the download', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      booth.event(60);
      writeFileSync(booth.home('.slow'), '');
      const { code, out } = await booth.deploy([booth.build(NEW)]);
      expect(code).toBe(75);
      expect(out).toContain('REFUSED: /healthz on port');
      expect(out).toContain('did not answer within 3 s (a busy booth?): cannot tell whether an event is under way');
      expect(booth.calls().some((c) => c.includes(' receive '))).toBe(false);
      await booth.publish([NEW]);
      expect((await booth.timerFires()).code).toBe(0);
      expect(booth.deployLog()).toContain('Pull: deferred; the next tick tries again');
      expect(existsSync(booth.home('boothdeck', B))).toBe(false);
      expect(starts(booth)).toBe(0);
      expect(booth.fleetEntry()).toMatchObject({ last_outcome: 'deferred', event: 'unknown' });
    });

    it('the guard reads the unit: nothing listening while the unit restarts the release is a gap (deferred), not a stopped Boothdeck', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      restartAfter(booth, 60);
      crashRunning(booth);
      await booth.waitFor(() => booth.systemd.show('boothdeck.service').sub === 'auto-restart');
      const { code, out } = await booth.deploy([booth.build(NEW)]);
      expect(code, out).toBe(75);
      expect(out).toMatch(
        /REFUSED: Boothdeck's unit is running \(activating\/auto-restart.*but nothing answers on port \d+ \(a restart under way\?\)/,
      );
      expect(booth.calls().some((c) => c.includes(' receive '))).toBe(false);
    });

    it('the guard lets a deploy through a crash loop (nothing to protect), and the new release ends it', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      restartAfter(booth, 0.3);
      // The running release now dies at every start.
      writeFileSync(booth.home('boothdeck', A), readFileSync(booth.home('boothdeck', A), 'utf8').replace("'healthy'", "'live-crash'"));
      crashRunning(booth);
      const { code, out } = await booth.deploy([booth.build(NEW)]);
      expect(code, out).toBe(0);
      expect(out).toContain('Event guard: the running release keeps dying');
      expect(await booth.liveVersion()).toBe(NEW);
    });

    it('an event open with no photo yet is protected for its first hours, then no longer', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      booth.event(null, 600);
      const open = await booth.deploy([booth.build(NEW)]);
      expect(open.code).toBe(75);
      expect(open.out).toContain('an event is open on the booth since 10 min, with no photo yet');
      booth.event(null); // a release that does not say when the event was opened: refused too
      expect((await booth.deploy([booth.artifact(NEW)])).out).toContain('an event is open on the booth with no photo yet');
      booth.event(null, 13 * 3600);
      const stale = await booth.deploy([booth.artifact(NEW)]);
      expect(stale.code, stale.out).toBe(0);
      expect(await booth.liveVersion()).toBe(NEW);
    });

    it('a rollback during an event is refused without force, and goes through with force on this booth; the pull does not put it back', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      expect((await booth.deploy([booth.build(NEW)])).code).toBe(0);
      booth.event(120);
      const refused = await booth.onBooth('boothdeck-rollback');
      expect(refused.code).toBe(75);
      expect(refused.out).toContain('REFUSED: an event is under way on the booth (last photo 2 min ago');
      expect(await booth.liveVersion()).toBe(NEW);
      expect((await booth.deploy(['--rollback'])).code).toBe(75);
      const forced = await booth.onBooth('boothdeck-rollback --force');
      expect(forced.code, forced.out).toBe(0);
      expect(forced.out).toContain('FORCED: an event is under way');
      expect(await booth.liveVersion()).toBe(OLD);
      await booth.publish([NEW]);
      booth.event(3 * 3600);
      expect((await booth.timerFires()).code).toBe(0);
      expect(booth.deployLog()).toContain(`Pull: ${NEW} failed or was rolled back on this booth; waiting for a newer release`);
      expect(await booth.liveVersion()).toBe(OLD);
    });

    it('a hand rollback over an incompatible migration puts the release and its database back, and carries the print jobs queued since', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      expect((await booth.deploy([booth.build(NEW, 'healthy', { knows: 10, migrate: '10:0' })])).code).toBe(0);
      expect(liveMigrations(booth).at(-1)).toBe('10:0');
      const db = new Database(booth.home(DB));
      db.prepare("INSERT INTO print_jobs (id, photo_id, copies, state, created_at) VALUES (1, 'photo-42', 2, 'queued', 5000)").run();
      db.close();
      const { code, out } = await booth.onBooth('boothdeck-rollback');
      expect(code, out).toBe(0);
      expect(out).toContain('put back the snapshot of Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
      expect(out).toContain('photo photo-42, 2 copies (queued)');
      expect(readdirSync(booth.home('.config/Boothdeck/data/carry-over'))).toHaveLength(1);
      expect(liveMigrations(booth).at(-1)).toBe('9:0');
      expect(await booth.liveVersion()).toBe(OLD);
    });

    it('a rollback over backward-compatible migrations only keeps the live database', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      // A snapshot an earlier version left open to other users (the publishing password was in clear then).
      const old = booth.home('boothdeck/snapshots/Boothdeck-0.0.9-g0000000-arm64.AppImage');
      mkdirSync(old, { recursive: true });
      chmodSync(booth.home('boothdeck/snapshots'), 0o755);
      chmodSync(old, 0o755);
      writeFileSync(path.join(old, 'boothdeck.sqlite'), 'secrets in clear', { mode: 0o644 });
      expect(openToOthers(booth.home('boothdeck/snapshots'))).not.toEqual([]);
      expect((await booth.deploy([booth.build(NEW, 'healthy', { knows: 10, migrate: '10:1' })])).code).toBe(0);
      // Closed at the switch, the old one included.
      expect(openToOthers(booth.home('boothdeck/snapshots'))).toEqual([]);
      expect(readdirSync(booth.home('boothdeck/snapshots')).sort()).toEqual([path.basename(A), path.basename(old)].sort());
      const { code, out } = await booth.onBooth('boothdeck-rollback');
      expect(code, out).toBe(0);
      expect(out).toContain('all backward compatible (10:1): it stays');
      expect(liveMigrations(booth).at(-1)).toBe('10:1');
      expect(await booth.liveVersion()).toBe(OLD);
    });

    it('a booth that missed three releases installs the newest by itself when its pull timer fires, once idle; then says it is up to date', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      expect(original().calls()).toContain('systemctl --user enable --now boothdeck-pull.timer');
      await booth.publish(['0.1.0-gbbbbbbb', '0.1.0-gccccccc', '0.1.0-gddddddd']);
      booth.event(300);
      const during = await booth.timerFires();
      expect(during.code, during.out).toBe(0);
      expect(booth.deployLog()).toContain('Pull: deferred');
      expect(readdirSync(booth.home('boothdeck/releases'))).toEqual([path.basename(A)]);
      expect(starts(booth)).toBe(0);
      booth.event(3 * 3600);
      const after = await booth.timerFires();
      expect(after.code, after.out).toBe(0);
      expect(await booth.liveVersion()).toBe('0.1.0-gddddddd');
      expect(booth.link('previous')).toBe(A);
      expect(readdirSync(booth.home('boothdeck/releases')).sort()).toEqual([path.basename(A), 'Boothdeck-0.1.0-gddddddd-arm64.AppImage']);
      expect((await booth.timerFires()).code).toBe(0);
      expect(booth.fleetEntry()).toMatchObject({
        version: '0.1.0-gddddddd',
        release_date: '2026-11-26T18:00:00Z',
        last_outcome: 'up-to-date',
        event: 'idle',
      });
    });

    it('not enough room for the release twice, the database and the reserve: refused before the download, on the fleet page too', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      // 60 MB fit once in 200 MB with the 100 MB reserve, not twice.
      const check = await booth.deploy(['--check', path.basename(booth.artifact(NEW)), String(60 * 1048576)], {
        FAKE_FREE_KB: String(200 * 1024),
        GITHUB_ACTIONS: 'true',
      });
      expect(check.code).toBe(74);
      expect(check.out).toMatch(
        /REFUSED: not enough free space on the booth: 200 MB free in .*, 220 MB needed .* Nothing was downloaded\./,
      );
      expect(check.out).toContain('::error title=Deploy refused::Not enough free space');
      expect(booth.fleetEntry()).toMatchObject({ last_outcome: 'no-space' });
      await booth.publish([NEW]);
      const pulled = await booth.onBooth('boothdeck-deploy pull', { FAKE_FREE_KB: '20000' });
      expect(pulled.code).toBe(74);
      expect(readdirSync(booth.home('boothdeck/releases'))).toEqual([path.basename(A)]);
      expect(booth.leftovers()).toEqual([]);
    });

    it('only healthy releases are kept: a failed one goes at once, three healthy ones stay beside current and previous', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      for (const v of ['0.1.0-gbbbbbbb', '0.1.0-gccccccc']) expect((await booth.deploy([booth.build(v)])).code).toBe(0);
      expect((await booth.deploy([booth.build('0.1.0-gdddddd0', 'live-crash')])).code).toBe(1);
      expect(existsSync(booth.home('boothdeck/releases/Boothdeck-0.1.0-gdddddd0-arm64.AppImage'))).toBe(false);
      for (const v of ['0.1.0-geeeeeee', '0.1.0-gfffffff']) expect((await booth.deploy([booth.build(v)])).code).toBe(0);
      expect(readdirSync(booth.home('boothdeck/releases')).sort()).toEqual([
        'Boothdeck-0.1.0-gccccccc-arm64.AppImage',
        'Boothdeck-0.1.0-geeeeeee-arm64.AppImage',
        'Boothdeck-0.1.0-gfffffff-arm64.AppImage',
      ]);
    });

    it('an install requested through the inbox during an event starts nothing: no trial instance, no restart, deferred on the fleet page', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      const inbox = path.join(booth.root, 'inbox');
      mkdirSync(inbox);
      writeFileSync(booth.home('.config/boothdeck/fleet.env'), `BOOTHDECK_INBOX=${inbox}\nBOOTHDECK_BOOTH_NAME=salle-a\n`);
      booth.event(120);
      const tool = booth.home('boothdeck/bin/boothdeck-deploy');
      const { code, out } = await booth.deploy([booth.build(NEW)], {
        BOOTH_HOST: '',
        BOOTH_USER: 'booth-user-x',
        BOOTH_INBOX: inbox,
        BOOTH_TOOL: tool,
      });
      expect(code, out).toBe(75);
      expect(out).toContain('REFUSED: an event is under way on the booth (last photo 2 min ago');
      expect(existsSync(booth.home('.trial-args'))).toBe(false);
      expect(booth.releaseProcesses().filter((r) => r.trial)).toEqual([]);
      expect(starts(booth)).toBe(0);
      expect(booth.fleetEntry()).toMatchObject({ last_outcome: 'deferred', event: 'under-way' });
    });
  },
);

describe('the fleet page is the truth: every outcome, with its time, on the company remote', () => {
  it(
    'deferred, no space, failed, watching, installed, rolled back, up to date, crash loop, recovered: each one as it happens',
    { timeout: 600_000 },
    async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      const remote = path.join(booth.root, 'online-gallery/fleet');
      mkdirSync(path.join(remote, 'booths'), { recursive: true });
      writeFileSync(
        path.join(remote, 'booths/salle-b.json'),
        JSON.stringify({
          booth: 'salle-b',
          version: OLD,
          release_date: '-',
          last_outcome: 'installed',
          last_deploy_at: 'x',
          event: 'idle',
          detail: '',
        }),
      );
      const fleetEnv = `BOOTHDECK_BOOTH_NAME=salle-a\nBOOTHDECK_FLEET_REMOTE=${remote}\n`;
      writeFileSync(booth.home('.config/boothdeck/fleet.env'), fleetEnv);
      const page = (): { booths: { booth: string; version: string; last_outcome: string; last_deploy_at: string; event: string }[] } =>
        JSON.parse(readFileSync(path.join(remote, 'fleet.json'), 'utf8'));
      const ours = () => page().booths.find((b) => b.booth === 'salle-a')!;
      const times: number[] = [];
      const expectOutcome = async (outcome: string, event?: string): Promise<void> => {
        await expect.poll(() => existsSync(path.join(remote, 'fleet.json')) && ours().last_outcome, { timeout: 20_000 }).toBe(outcome);
        if (event) expect(ours().event, outcome).toBe(event);
        times.push(Date.parse(ours().last_deploy_at));
        expect(page().booths.map((b) => b.booth)).toEqual(['salle-a', 'salle-b']);
      };

      booth.event(60);
      expect((await booth.deploy([booth.build(NEW)])).code).toBe(75);
      await expectOutcome('deferred', 'under-way');
      rmSync(booth.home('.event'));
      expect((await booth.deploy([booth.artifact(NEW)], { FAKE_FREE_KB: '1000' })).code).toBe(74);
      await expectOutcome('no-space');
      expect((await booth.deploy([booth.build(NEW, 'crash')])).code).toBe(1);
      await expectOutcome('failed', 'idle');
      // The remote says watching while the new release is watched.
      const deploying = booth.deploy([booth.build(NEW)], { BOOTH_WATCH_SECONDS: '8' });
      await expectOutcome('watching');
      expect((await deploying).code).toBe(0);
      await expectOutcome('installed', 'idle');
      expect(ours().version).toBe(NEW);
      expect((await booth.deploy([booth.build('0.1.0-gccccccc', 'live-crash')])).code).toBe(1);
      await expectOutcome('rolled-back');
      await booth.publish([NEW], fleetEnv);
      expect((await booth.timerFires()).code).toBe(0);
      await expectOutcome('up-to-date', 'idle');
      // The running release starts dying at every start: the next pull says so.
      restartAfter(booth, 0.3);
      writeFileSync(booth.home('boothdeck', B), readFileSync(booth.home('boothdeck', B), 'utf8').replace("'healthy'", "'live-crash'"));
      crashRunning(booth);
      expect((await booth.timerFires()).code).toBe(0);
      await expectOutcome('crash-loop', 'unknown');
      // A switch interrupted (its journal left behind), finished by hand.
      writeFileSync(booth.home('boothdeck', B), readFileSync(booth.home('boothdeck', B), 'utf8').replace("'live-crash'", "'healthy'"));
      writeFileSync(
        booth.home('boothdeck/deploy.state'),
        JSON.stringify({ run: 'x', kind: 'install', from: A, to: B, plan: 'live', step: 'committing', force: false, begun: '' }),
      );
      expect((await booth.onBooth('boothdeck-deploy recover')).code).toBe(0);
      await expectOutcome('installed');
      expect(ours().version).toBe(NEW);
      for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
      expect(readFileSync(path.join(remote, 'index.html'), 'utf8')).toContain('<td>salle-b</td>');
    },
  );
});
