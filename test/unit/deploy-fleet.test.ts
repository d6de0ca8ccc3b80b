import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { FakeBooth } from '../support/fake-booth.js';

const A = 'releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage';
const B = 'releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage';
const OLD = '0.1.0-gaaaaaaa';
const NEW = '0.1.0-gbbbbbbb';

/** A booth running 0.1.0-gaaaaaaa on a real SQLite database at migration 9, copied by each case. */
let seeded: FakeBooth;
beforeAll(async () => {
  seeded = new FakeBooth();
  mkdirSync(seeded.home('.config/Boothdeck/data'), { recursive: true });
  const db = new Database(seeded.home('.config/Boothdeck/data/boothdeck.sqlite'));
  db.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL,
    backward_compatible INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE print_jobs (id INTEGER PRIMARY KEY, photo_id TEXT NOT NULL, copies INTEGER NOT NULL, state TEXT NOT NULL);`);
  for (let v = 1; v <= 9; v++) db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?, 0)').run(v, `m${v}`, 'then');
  db.close();
  mkdirSync(seeded.home('.config/boothdeck'), { recursive: true });
  writeFileSync(seeded.home('.config/boothdeck/fleet.env'), 'BOOTHDECK_BOOTH_NAME=salle-a\n');
  const first = await seeded.deploy([seeded.build(OLD)]);
  if (first.code !== 0) throw new Error(first.out);
}, 90_000);
afterAll(() => seeded.dispose());

function boothFor({ onTestFinished }: TestContext): FakeBooth {
  const booth = seeded.clone();
  onTestFinished(() => booth.dispose());
  return booth;
}

/** The migrations of the live database, as "version:compatible". */
function liveMigrations(booth: FakeBooth): string[] {
  const db = new Database(booth.home('.config/Boothdeck/data/boothdeck.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT version, backward_compatible AS c FROM schema_migrations ORDER BY version').all() as {
      version: number;
      c: number;
    }[];
    return rows.map((r) => `${r.version}:${r.c}`);
  } finally {
    db.close();
  }
}

const restarts = (booth: FakeBooth): number => booth.calls().filter((c) => c === 'systemctl --user restart boothdeck.service').length;

/** Publishes builds where the booth pulls from (file:// stands for the pipeline's HTTPS releases). */
function publish(booth: FakeBooth, versions: string[]): string {
  const dir = booth.publish(versions);
  writeFileSync(booth.home('.config/boothdeck/fleet.env'), `BOOTHDECK_BOOTH_NAME=salle-a\nBOOTHDECK_RELEASES_URL=file://${dir}\n`);
  return dir;
}

/** The stand-in curl's calls for a release file (the manifest is not one). */
const downloads = (booth: FakeBooth): string[] => booth.calls().filter((c) => c.startsWith('curl ') && c.endsWith('.AppImage'));

describe.concurrent(
  'a fleet of booths: the database with the release, crash loops, the guard, pulls, the fleet page',
  { timeout: 90_000 },
  () => {
    it('a release that migrates the database then fails live: the booth ends on the old release and its database, answering', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      // A snapshot an earlier deploy left open to other users (the secrets were in clear then).
      mkdirSync(booth.home('boothdeck/snapshots/Boothdeck-0.0.9-g0000000-arm64.AppImage'), { recursive: true, mode: 0o755 });
      writeFileSync(booth.home('boothdeck/snapshots/Boothdeck-0.0.9-g0000000-arm64.AppImage/boothdeck.sqlite'), '', { mode: 0o644 });
      const { code, out } = await booth.deploy([booth.build(NEW, 'live-crash', { knows: 10, migrate: '10:0' })]);
      expect(code).toBe(1);
      expect(out).toContain('Database snapshot of Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage kept');
      expect(out).toMatch(/not backward compatible \(10:0\)/);
      expect(out).toContain('put back the snapshot of Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
      expect(out).toContain(`ROLLED BACK to ${A}, which answers /healthz again`);
      expect(booth.link('current')).toBe(A);
      expect(booth.liveVersion()).toBe(OLD);
      expect(liveMigrations(booth).at(-1)).toBe('9:0');
      // The failed release is not kept, and its database is kept aside for a look.
      expect(existsSync(booth.home('boothdeck', B))).toBe(false);
      expect(readdirSync(booth.home('boothdeck/snapshots')).some((d) => d.startsWith('replaced-'))).toBe(true);
      // Every copy of the database (PIN hashes, and secrets in clear in the old ones) is the booth user's alone.
      const snapshots = booth.home('boothdeck/snapshots');
      const open = [snapshots, ...readdirSync(snapshots, { recursive: true, encoding: 'utf8' }).map((f) => path.join(snapshots, f))].filter(
        (f) => (statSync(f).mode & 0o077) !== 0,
      );
      expect(open.map((f) => `${path.relative(snapshots, f)} ${(statSync(f).mode & 0o777).toString(8)}`)).toEqual([]);
    });

    it('a crash loop is seen from the unit and rolled back within 20 s, long before /healthz gives up', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      const started = performance.now();
      // /healthz alone would wait 2000 × 0.05 s = 100 s.
      const { code, out } = await booth.deploy([booth.build(NEW, 'live-crash')], {
        BOOTH_HEALTH_ATTEMPTS: '2000',
        BOOTH_HEALTH_WAIT: '0.05',
      });
      const seconds = (performance.now() - started) / 1000;
      expect(code).toBe(1);
      expect(out).toContain('Crash loop: the unit died at start (activating/auto-restart');
      expect(out).toContain(`ROLLED BACK to ${A}, which answers /healthz again`);
      expect(seconds).toBeLessThan(20);
      expect(booth.liveVersion()).toBe(OLD);
    });

    it('a deploy killed right after switching to a crash-looping release: recover sees the crash loop and goes back within 20 s', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      copyFileSync(booth.build(NEW, 'live-crash'), booth.home('boothdeck', B));
      writeFileSync(booth.home('boothdeck/deploy.state'), `from=${A}\nto=${B}\n`);
      rmSync(booth.home('boothdeck/current'));
      symlinkSync(B, booth.home('boothdeck/current'));
      writeFileSync(booth.home('.running'), '');
      writeFileSync(booth.home('.unit-crashed'), '');
      const started = performance.now();
      const { code, out } = await booth.onBooth('boothdeck-deploy recover', {
        BOOTHDECK_HEALTH_ATTEMPTS: '2000',
        BOOTHDECK_HEALTH_WAIT: '0.05',
      });
      expect(code, out).toBe(0);
      expect((performance.now() - started) / 1000).toBeLessThan(20);
      expect(out).toContain('Nothing answers and the unit died at start');
      expect(out).toContain(`RECOVERED: ${OLD} restarted and answers`);
      expect(booth.link('current')).toBe(A);
      expect(booth.liveVersion()).toBe(OLD);
    });

    it('a /healthz slower than 3 s during an event: refused before any upload, never restarted', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      booth.event(60);
      writeFileSync(booth.home('.slow'), '');
      const { code, out } = await booth.deploy([booth.build(NEW)]);
      expect(code).toBe(75);
      expect(out).toContain('REFUSED: /healthz did not answer within 3 s (a busy booth?): cannot tell whether an event is under way');
      expect(booth.calls().some((c) => c.includes(' receive '))).toBe(false);
      expect(restarts(booth)).toBe(0);
      expect(booth.link('current')).toBe(A);
    });

    it('a /healthz slower than 3 s during an event when the pull timer fires: deferred before the download, never restarted', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      publish(booth, [NEW]);
      booth.event(60);
      writeFileSync(booth.home('.slow'), '');
      const { code, out } = await booth.timerFires();
      expect(code, out).toBe(0);
      expect(booth.deployLog()).toContain('REFUSED: /healthz did not answer within 3 s (a busy booth?)');
      expect(booth.deployLog()).toContain('Pull: deferred; the next tick tries again');
      expect(downloads(booth)).toEqual([]);
      expect(restarts(booth)).toBe(0);
      expect(booth.link('current')).toBe(A);
    });

    it('an event open with no photo yet is protected for its first hours, then no longer', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      booth.event(null, 600);
      const open = await booth.deploy([booth.build(NEW)]);
      expect(open.code).toBe(75);
      expect(open.out).toContain('an event is open on the booth since 10 min, with no photo yet');
      booth.event(null); // a release that does not say when the event was opened: refused too
      expect((await booth.deploy([booth.artifact(NEW)])).out).toContain('an event is open on the booth with no photo yet');
      booth.event(null, 13 * 3600);
      const stale = await booth.deploy([booth.artifact(NEW)]);
      expect(stale.code, stale.out).toBe(0);
      expect(booth.liveVersion()).toBe(NEW);
    });

    it('a rollback during an event is refused without force, and goes through with force on this booth', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      expect((await booth.deploy([booth.build(NEW)])).code).toBe(0);
      booth.event(120);
      const refused = await booth.onBooth('boothdeck-rollback');
      expect(refused.code).toBe(75);
      expect(refused.out).toContain('REFUSED: an event is under way on the booth (last photo 2 min ago');
      expect(booth.liveVersion()).toBe(NEW);
      const fromPipeline = await booth.deploy(['--rollback']);
      expect(fromPipeline.code).toBe(75);
      expect(booth.liveVersion()).toBe(NEW);
      const forced = await booth.onBooth('boothdeck-rollback --force');
      expect(forced.code, forced.out).toBe(0);
      expect(forced.out).toContain('FORCED: an event is under way');
      expect(booth.liveVersion()).toBe(OLD);
      // The pull does not put back the release the booth was rolled back from, once the event is over.
      publish(booth, [NEW]);
      booth.event(3 * 3600);
      expect((await booth.timerFires()).code).toBe(0);
      expect(booth.deployLog()).toContain(`Pull: ${NEW} failed or was rolled back on this booth; waiting for a newer release`);
      expect(booth.liveVersion()).toBe(OLD);
    });

    it('a hand rollback over an incompatible migration puts the release and its database back, and lists the print jobs queued since', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      expect((await booth.deploy([booth.build(NEW, 'healthy', { knows: 10, migrate: '10:0' })])).code).toBe(0);
      expect(liveMigrations(booth).at(-1)).toBe('10:0');
      const db = new Database(booth.home('.config/Boothdeck/data/boothdeck.sqlite'));
      db.prepare("INSERT INTO print_jobs VALUES (1, 'photo-42', 2, 'queued')").run();
      db.close();
      const { code, out } = await booth.onBooth('boothdeck-rollback');
      expect(code, out).toBe(0);
      expect(out).toContain('put back the snapshot of Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage');
      expect(out).toContain('job 1: photo photo-42, 2 copies (queued)');
      expect(liveMigrations(booth).at(-1)).toBe('9:0');
      expect(booth.liveVersion()).toBe(OLD);
    });

    it('a rollback over backward-compatible migrations only keeps the live database', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      expect((await booth.deploy([booth.build(NEW, 'healthy', { knows: 10, migrate: '10:1' })])).code).toBe(0);
      const { code, out } = await booth.onBooth('boothdeck-rollback');
      expect(code, out).toBe(0);
      expect(out).toContain('all backward compatible (10:1): it stays');
      expect(liveMigrations(booth).at(-1)).toBe('10:1');
      expect(booth.liveVersion()).toBe(OLD);
    });

    it('a booth that missed three releases installs the newest by itself when its pull timer fires, once idle; then says it is up to date', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      // The first deploy installed and enabled the timer, every 15 min and 5 min after boot.
      expect(seeded.calls()).toContain('systemctl --user enable --now boothdeck-pull.timer');
      expect(readFileSync(booth.home('.config/systemd/user/boothdeck-pull.timer'), 'utf8')).toMatch(
        /OnBootSec=5min[\s\S]*OnUnitInactiveSec=15min/,
      );
      publish(booth, ['0.1.0-gbbbbbbb', '0.1.0-gccccccc', '0.1.0-gddddddd']);
      booth.event(300);
      const during = await booth.timerFires();
      expect(during.code, during.out).toBe(0);
      expect(booth.deployLog()).toContain('Pull: deferred');
      expect(readdirSync(booth.home('boothdeck/releases'))).toEqual([path.basename(A)]);
      expect(downloads(booth)).toEqual([]);
      expect(restarts(booth)).toBe(0);
      booth.event(3 * 3600);
      const after = await booth.timerFires();
      expect(after.code, after.out).toBe(0);
      expect(downloads(booth)).toHaveLength(1);
      expect(booth.liveVersion()).toBe('0.1.0-gddddddd');
      expect(booth.link('previous')).toBe(A);
      expect(readdirSync(booth.home('boothdeck/releases')).sort()).toEqual([path.basename(A), 'Boothdeck-0.1.0-gddddddd-arm64.AppImage']);
      const again = await booth.timerFires();
      expect(again.code).toBe(0);
      expect(booth.deployLog()).toMatch(
        /\] FLEET booth=salle-a version=0\.1\.0-gddddddd released=2026-11-26T18:00:00Z outcome=up-to-date event=idle$/m,
      );
    });

    it('not enough room for the release twice, the database and the reserve: refused before the download', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
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
      // The pull checks the same before it downloads.
      publish(booth, [NEW]);
      const pulled = await booth.onBooth('boothdeck-deploy pull', { FAKE_FREE_KB: '20000' });
      expect(pulled.code).toBe(74);
      expect(booth.calls().some((c) => c.startsWith('curl ') && c.endsWith('/boothdeck-release.txt'))).toBe(true);
      expect(downloads(booth)).toEqual([]);
      expect(readdirSync(booth.home('boothdeck/releases'))).toEqual([path.basename(A)]);
      expect(booth.leftovers()).toEqual([]);
    });

    it('each booth reports to the fleet page: its file, fleet.json and the page on the remote, and a row of the job summary', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      const remote = path.join(booth.root, 'online-gallery/fleet');
      mkdirSync(path.join(remote, 'booths'), { recursive: true });
      writeFileSync(
        path.join(remote, 'booths/salle-b.json'),
        JSON.stringify({
          booth: 'salle-b',
          version: OLD,
          release_date: '-',
          last_outcome: 'deferred',
          last_deploy_at: 'x',
          event: 'under-way',
        }),
      );
      writeFileSync(booth.home('.config/boothdeck/fleet.env'), `BOOTHDECK_BOOTH_NAME=salle-a\nBOOTHDECK_FLEET_REMOTE=${remote}\n`);
      const summary = path.join(booth.root, 'summary.md');
      const { code, out } = await booth.deploy([booth.build(NEW)], {
        GITHUB_STEP_SUMMARY: summary,
        BOOTH_RELEASE_DATE: '2026-11-26T18:00:00Z',
        PATH: `${booth.bin}:/usr/local/bin:/usr/bin:/bin`,
      });
      expect(code, out).toBe(0);
      expect(readFileSync(summary, 'utf8')).toContain(`| salle-a | ${NEW} | 2026-11-26T18:00:00Z | installed | idle |`);
      // The page is written after the result: the run's last act, waited for here.
      await expect.poll(() => existsSync(path.join(remote, 'index.html')), { timeout: 20_000 }).toBe(true);
      const fleet = JSON.parse(readFileSync(path.join(remote, 'fleet.json'), 'utf8')) as { booths: { booth: string; version: string }[] };
      expect(fleet.booths.map((b) => `${b.booth} ${b.version}`)).toEqual([`salle-a ${NEW}`, `salle-b ${OLD}`]);
      expect(readFileSync(path.join(remote, 'index.html'), 'utf8')).toContain('<td>salle-b</td>');
    });

    it('only healthy releases are kept: a failed one goes at once, three healthy ones stay beside current and previous', async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
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

    it("the setsid fallback leaves the runner's tracking id behind (the runner's clean-up would kill the install)", async (context) => {
      const { expect } = context;
      const booth = boothFor(context);
      const { code, out } = await booth.deploy([booth.build(NEW)], { FAKE_NO_SYSTEMD_RUN: '1', RUNNER_TRACKING_ID: 'github_1234' });
      expect(code, out).toBe(0);
      expect(out).toMatch(/The install goes on by itself \(process \d+\)/);
      expect(readFileSync(booth.home('.trial-env'), 'utf8')).not.toContain('RUNNER_TRACKING_ID');
      expect(statSync(booth.home('boothdeck/releases')).isDirectory()).toBe(true);
    });
  },
);
