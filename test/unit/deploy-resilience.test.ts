import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { BACK_STEPS, FORWARD_STEPS } from '../../deploy/src/rules/journal.js';
import { eachConcurrently, FakeBooth } from '../support/fake-booth.js';

const A = 'releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage';
const B = 'releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage';
const OLD = '0.1.0-gaaaaaaa';
const NEW = '0.1.0-gbbbbbbb';
/** Booths at a time within one case; the cases also run side by side. */
const AT_ONCE = 3;

/**
 * Run by the deploy at each step of its switch (BOOTHDECK_DEPLOY_STEP_HOOK), with the step and the
 * deploy's process id: at FAKE_KILL_STEP, the first time, it kills the deploy's whole process group
 * (SIGKILL: a crash, the OOM killer) or sends it SIGTERM (its unit stopped, the booth shut down),
 * and notes when.
 */
const HOOK = `#!/bin/sh
printf '%s\\n' "$1" >>"$FAKE_BOARD/.steps"
[ "$1" = "$FAKE_KILL_STEP" ] && [ ! -e "$FAKE_BOARD/.killed" ] || exit 0
date +%s%3N >"$FAKE_BOARD/.killed"
if [ "$FAKE_KILL_SIGNAL" = KILL ]; then
  read -r _ _ _ _ group _ <"/proc/$2/stat"
  kill -s KILL -- "-$group"
elif [ "$FAKE_KILL_SIGNAL" = TERM-UNIT ]; then
  # As systemd stops the deploy's unit: SIGTERM to every process of it (the lock's holder too).
  trap '' TERM
  seen=$(wc -l <"$FAKE_BOARD/boothdeck/deploy.log")
  read -r _ _ _ _ group _ <"/proc/$2/stat"
  kill -s TERM -- "-$group"
  # Time for a watcher that found the lock free to show itself in the log before the deploy goes on.
  i=0
  while [ $i -lt 30 ] && ! tail -n +$((seen + 1)) "$FAKE_BOARD/boothdeck/deploy.log" | grep -qF '[recover-'; do
    sleep 0.1
    i=$((i + 1))
  done
else
  kill -TERM "$2"
fi
`;

/** A booth running 0.1.0-gaaaaaaa on a database at migration 9, with 0.1.0-gbbbbbbb built beside it, copied for each case. */
let seeded: FakeBooth;
/** What a whole update, uninterrupted, prints (to cut its output after each line). */
let fullOutput: string[];
beforeAll(async () => {
  seeded = await FakeBooth.create();
  mkdirSync(seeded.home('.config/Boothdeck/data'), { recursive: true });
  const db = new Database(seeded.home('.config/Boothdeck/data/boothdeck.sqlite'));
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL, backward_compatible INTEGER NOT NULL DEFAULT 0)',
  );
  for (let v = 1; v <= 9; v++) db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?, 0)').run(v, `m${v}`, 'then');
  db.close();
  const first = await seeded.deploy([seeded.build(OLD)]);
  expect(first.code, first.out).toBe(0);
  seeded.build(NEW);
  const probe = await seeded.clone();
  try {
    const { code, out } = await probe.deploy([probe.artifact(NEW)]);
    expect(code, out).toBe(0);
    fullOutput = out.split('\n').filter(Boolean);
  } finally {
    await probe.dispose();
  }
}, 120_000);
afterAll(() => seeded.dispose());

/** What a booth must always come to: one release answering under the unit, the links saying which, nothing half-done. */
async function expectSettled(expect: ExpectStatic, booth: FakeBooth, why: string): Promise<string | undefined> {
  // The journal goes once the switch is finished (its watch window included).
  expect(
    await booth.waitFor(() => !existsSync(booth.home('boothdeck/deploy.state')), 60_000),
    `${why}: the journal stays\n${booth.deployLog()}`,
  ).toBe(true);
  const running = await booth.liveVersion();
  expect([OLD, NEW], why).toContain(running);
  expect(booth.link('current'), why).toBe(running === NEW ? B : A);
  if (running === NEW) expect(booth.link('previous'), why).toBe(A);
  const releases = booth.releaseProcesses();
  expect(
    releases.filter((r) => !r.trial).map((r) => r.version),
    `${why}: one release runs`,
  ).toEqual([running]);
  expect(
    releases.filter((r) => r.trial),
    `${why}: no trial instance is left`,
  ).toEqual([]);
  expect(
    booth.leftovers().filter((f) => f.endsWith('.part') || f.startsWith('trial')),
    why,
  ).toEqual([]);
  return running;
}

/** The hook, written into the booth, and the variables that make the deploy run it. */
function hookEnv(booth: FakeBooth, step: string, signal: Case['signal']): Record<string, string> {
  const hook = path.join(booth.root, 'step-hook');
  writeFileSync(hook, HOOK);
  chmodSync(hook, 0o755);
  return { BOOTHDECK_DEPLOY_STEP_HOOK: hook, FAKE_KILL_STEP: step, FAKE_KILL_SIGNAL: signal };
}

type Case = { step: string; signal: 'KILL' | 'TERM' | 'TERM-UNIT' };
const cases = (steps: readonly string[]): Case[] =>
  steps.flatMap((step) => (['KILL', 'TERM'] as const).map((signal) => ({ step, signal })));
const withDatabaseSwap = new Set(['restore-ready', 'restore-swap']);

/**
 * Interrupts a switch at a step, then checks that the booth answers again within 20 s of the
 * signal, and settles by itself with one release running: the one EXPECTED says.
 */
async function interruptAndSettle(
  expect: ExpectStatic,
  c: Case,
  act: (booth: FakeBooth, env: Record<string, string>) => Promise<unknown>,
  expected: string,
  after?: (booth: FakeBooth, why: string) => void,
): Promise<void> {
  const booth = await seeded.clone();
  try {
    const why = `SIG${c.signal} at "${c.step}"`;
    const result = await act(booth, hookEnv(booth, c.step, c.signal));
    expect(existsSync(booth.home('.killed')), `${why}: the step was never reached\n${JSON.stringify(result)}\n${booth.deployLog()}`).toBe(
      true,
    );
    const killedAt = Number(readFileSync(booth.home('.killed'), 'utf8'));
    expect(await booth.waitFor(async () => (await booth.liveVersion()) !== undefined, 30_000), why).toBe(true);
    const dark = (Date.now() - killedAt) / 1000;
    expect(dark, `${why}: dark for ${dark} s`).toBeLessThan(20);
    expect(await expectSettled(expect, booth, why), why).toBe(expected);
    after?.(booth, why);
  } finally {
    await booth.dispose();
  }
}

describe.concurrent('a deploy that does not go to its end', () => {
  it('ends on a running release and consistent links, whichever line its output is cut after', async ({ expect }) => {
    expect(fullOutput.length).toBeGreaterThan(10);
    const received = fullOutput.findIndex((line) => line.startsWith('Received '));
    expect(received).toBeGreaterThan(0);
    // Every line up to the upload, then every third: past the upload the install goes on by itself.
    const cuts = Array.from({ length: fullOutput.length }, (_, n) => n).filter((n) => n <= received + 1 || n % 3 === 0);
    await eachConcurrently(cuts, AT_ONCE, async (cut) => {
      const booth = await seeded.clone();
      try {
        await booth.deploy([booth.artifact(NEW)], {}, cut);
        // The install may go on by itself: the booth's own `follow` waits for its result line.
        for (const run of booth.runs(NEW)) {
          const followed = await booth.onBooth(`boothdeck-deploy follow ${run}`);
          expect(followed.code, `cut after ${cut} lines: ${followed.out}`).toBe(0);
        }
        const running = await expectSettled(expect, booth, `cut after ${cut} lines`);
        // Nothing was sent yet: nothing changed. Once the upload has arrived, a lost connection no longer stops the install.
        if (cut === 0) expect(running, `cut after ${cut} lines`).toBe(OLD);
        if (cut > received) expect(running, `cut after ${cut} lines`).toBe(NEW);
      } finally {
        await booth.dispose();
      }
    });
  }, 600_000);

  const forward = FORWARD_STEPS.filter((step) => !withDatabaseSwap.has(step));
  it(`an install stopped by SIGKILL or SIGTERM at each step of its switch (${forward.length} steps): the booth answers again within 20 s, one release running, the switch finished or undone by itself`, async ({
    expect,
  }) => {
    await eachConcurrently(cases(forward), AT_ONCE, async (c) => {
      // Nothing was stopped yet: the old release stays. From the stop on, the switch is finished.
      const expected = FORWARD_STEPS.indexOf(c.step as never) < FORWARD_STEPS.indexOf('stopped') ? OLD : NEW;
      await interruptAndSettle(expect, c, (booth, env) => booth.deploy([booth.artifact(NEW)], env), expected);
    });
  }, 1_200_000);

  it('its unit stopped in the middle of the switch (SIGTERM to every process of it, the lock holder too): the lock stays held while the deploy brings the booth to a running release, and the watcher finishes only after it', async ({
    expect,
  }) => {
    await eachConcurrently(['stopped', 'restored'], AT_ONCE, async (step) => {
      await interruptAndSettle(
        expect,
        { step, signal: 'TERM-UNIT' },
        (booth, env) => booth.deploy([booth.artifact(NEW)], env),
        NEW,
        (booth, why) => {
          const lines = booth.deployLog().split('\n');
          const stopped = lines.findIndex((l) => l.includes('Stopped (SIGTERM) at "starting"'));
          const watcher = lines.findIndex((l) => /\[recover-[^\]]*\] An earlier deploy stopped at/.test(l));
          expect(stopped, `${why}: the deploy settles on a running release\n${booth.deployLog()}`).toBeGreaterThan(0);
          expect(watcher, `${why}: the watcher finishes the switch\n${booth.deployLog()}`).toBeGreaterThan(0);
          expect(watcher, `${why}: the watcher ran beside the deploy\n${booth.deployLog()}`).toBeGreaterThan(stopped);
        },
      );
    });
  }, 600_000);

  it(`going back from a release that migrated the database and died, stopped at each step (${BACK_STEPS.length} steps, the database swap included): the old release answers again within 20 s`, async ({
    expect,
  }) => {
    await eachConcurrently(cases(BACK_STEPS), AT_ONCE, async (c) => {
      await interruptAndSettle(
        expect,
        c,
        (booth, env) => booth.deploy([booth.build(NEW, 'live-crash', { knows: 10, migrate: '10:0' })], env),
        OLD,
      );
    });
  }, 1_200_000);

  it('a rollback that puts a database snapshot back, stopped in the middle of the swap: finished, the old release on its database', async ({
    expect,
  }) => {
    await eachConcurrently(cases([...withDatabaseSwap]), AT_ONCE, async (c) => {
      await interruptAndSettle(
        expect,
        c,
        async (booth, env) => {
          const installed = await booth.deploy([booth.build(NEW, 'healthy', { knows: 10, migrate: '10:0' })]);
          expect(installed.code, installed.out).toBe(0);
          return booth.onBooth('boothdeck-rollback', env);
        },
        OLD,
      );
    });
  }, 600_000);

  it('a power cut in the middle of a database swap: at boot, the recover unit puts the database in place before Boothdeck starts, then the switch is finished', async ({
    expect,
  }) => {
    const booth = await seeded.clone();
    try {
      expect((await booth.deploy([booth.build(NEW, 'healthy', { knows: 10, migrate: '10:0' })])).code).toBe(0);
      // The state a rollback to A left when the power went: B stopped, A's snapshot copied beside
      // the live files, the live files moved aside, the copy not moved in yet.
      await booth.systemd.stopUnit('boothdeck.service');
      const data = booth.home('.config/Boothdeck/data');
      mkdirSync(path.join(data, 'restore-cut-1.tmp'));
      copyFileSync(
        booth.home('boothdeck/snapshots', path.basename(A), 'boothdeck.sqlite'),
        path.join(data, 'restore-cut-1.tmp/boothdeck.sqlite'),
      );
      mkdirSync(path.join(data, 'replaced-databases/cut-1'), { recursive: true });
      renameSync(path.join(data, 'boothdeck.sqlite'), path.join(data, 'replaced-databases/cut-1/boothdeck.sqlite'));
      const journal = { run: 'cut-1', kind: 'rollback', from: B, to: A, plan: 'snapshot', step: 'restore-swap', force: false, begun: '' };
      writeFileSync(booth.home('boothdeck/deploy.state'), JSON.stringify(journal));
      // boothdeck-recover.service runs before boothdeck.service at boot.
      const boot = await booth.systemd.runOneshot('boothdeck-recover.service', {
        BOOTHDECK_WATCH_SECONDS: '1',
        BOOTHDECK_HEALTH_WAIT: '0.05',
      });
      expect(boot.code, boot.out).toBe(0);
      expect(existsSync(path.join(data, 'boothdeck.sqlite'))).toBe(true);
      expect(booth.link('current')).toBe(A);
      expect(await expectSettled(expect, booth, 'after the boot')).toBe(OLD);
      const db = new Database(path.join(data, 'boothdeck.sqlite'), { readonly: true });
      expect((db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number }).v).toBe(9);
      db.close();
    } finally {
      await booth.dispose();
    }
  }, 120_000);

  it('a step that fails while Boothdeck is stopped (its database snapshot cannot be written): the release that ran starts again at once, the fleet page says why, and the new release is not blamed', async ({
    expect,
  }) => {
    const booth = await seeded.clone();
    try {
      // Where the snapshot goes is not a folder: copying the database there throws, as on a full disk.
      rmSync(booth.home('boothdeck/snapshots'), { recursive: true, force: true });
      writeFileSync(booth.home('boothdeck/snapshots'), '');
      writeFileSync(booth.home('.config/boothdeck/fleet.env'), 'BOOTHDECK_BOOTH_NAME=salle-a\n');
      const { code, out } = await booth.deploy([booth.artifact(NEW)]);
      expect(code, out).toBe(1);
      expect(out).toContain('FAILED: the deploy could not go on at "stopped"');
      expect(await booth.liveVersion()).toBe(OLD);
      expect(booth.link('current')).toBe(A);
      expect(existsSync(booth.home('boothdeck/deploy.state'))).toBe(false);
      expect(booth.fleetEntry()).toMatchObject({
        version: OLD,
        last_outcome: 'failed',
        detail: expect.stringMatching(
          /^0\.1\.0-gbbbbbbb was not installed: the deploy could not go on at "stopped" .*; 0\.1\.0-gaaaaaaa runs again$/,
        ),
      });
      // Not the release's fault: it stays on the booth, not marked failed, and a later pull may try it again.
      expect(existsSync(booth.home('boothdeck', B))).toBe(true);
      expect(existsSync(booth.home('boothdeck/failed', path.basename(B)))).toBe(false);
    } finally {
      await booth.dispose();
    }
  }, 120_000);

  it('a stop that fails (the unit still runs): nothing is switched, the running release serves on, and the new release is not blamed', async ({
    expect,
  }) => {
    const booth = await seeded.clone();
    try {
      writeFileSync(booth.home('.config/boothdeck/fleet.env'), 'BOOTHDECK_BOOTH_NAME=salle-a\n');
      const { code, out } = await booth.deploy([booth.artifact(NEW)], { FAKE_STOP_FAILS: '1' });
      expect(code, out).toBe(1);
      expect(out).toContain('FAILED: systemctl --user stop boothdeck.service failed and the unit is active/running');
      expect(await booth.liveVersion()).toBe(OLD);
      expect(booth.link('current')).toBe(A);
      expect(existsSync(booth.home('boothdeck/deploy.state'))).toBe(false);
      // No snapshot of a database that was still being written.
      expect(existsSync(booth.home('boothdeck/snapshots', path.basename(A)))).toBe(false);
      expect(existsSync(booth.home('boothdeck/failed', path.basename(B)))).toBe(false);
      expect(booth.fleetEntry()).toMatchObject({
        version: OLD,
        last_outcome: 'failed',
        detail: expect.stringContaining('0.1.0-gbbbbbbb was not installed: Boothdeck could not be stopped for the switch'),
      });
    } finally {
      await booth.dispose();
    }
  }, 120_000);

  it('two deploys at once: the second is refused while the first installs, and the first ends with the right previous release', async ({
    expect,
  }) => {
    const booth = await seeded.clone();
    const gatePath = booth.home('.gate');
    execFileSync('mkfifo', [gatePath]);
    const first = booth.deploy([booth.build(NEW, 'gate')]);
    try {
      // Opening the gate returns once the first install's trial start waits at it, lock held.
      const gate = await Promise.race([
        open(gatePath, 'w'),
        first.then(({ out }) => {
          closeSync(openSync(gatePath, constants.O_RDONLY | constants.O_NONBLOCK)); // lets the open above return
          throw new Error(`the first deploy ended before its trial start:\n${out}`);
        }),
      ]);
      try {
        const second = await booth.deploy([booth.build('0.1.0-gccccccc')], { GITHUB_ACTIONS: 'true' });
        expect(second.code).toBe(73);
        expect(second.out).toMatch(/REFUSED: another deploy is under way on this booth \(0\.1\.0-gbbbbbbb-/);
        expect(second.out).toContain('::error title=Deploy refused::Another deploy is under way');
      } finally {
        await gate.write('go\n');
        await gate.close();
      }
      const done = await first;
      expect(done.code, done.out).toBe(0);
      expect(booth.link('current')).toBe(B);
      expect(booth.link('previous')).toBe(A);
      expect(booth.leftovers()).toEqual([]);
      expect(existsSync(booth.home('boothdeck/releases/Boothdeck-0.1.0-gccccccc-arm64.AppImage'))).toBe(false);
    } finally {
      await first;
      await booth.dispose();
    }
  }, 120_000);
});
