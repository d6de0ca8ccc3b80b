import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { eachConcurrently, FakeBooth } from '../support/fake-booth.js';

const A = 'releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage';
const B = 'releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage';
const OLD = '0.1.0-gaaaaaaa';
const NEW = '0.1.0-gbbbbbbb';
/** Booths at a time within one case; the three cases also run side by side. */
const AT_ONCE = 2;

/** A booth running 0.1.0-gaaaaaaa, with 0.1.0-gbbbbbbb built beside it, copied for each case. */
let seeded: FakeBooth;
/** What a whole update, uninterrupted, prints (to cut its output after each line) and does (to kill it at each step). */
let fullOutput: string[];
let steps: string[];
beforeAll(async () => {
  seeded = new FakeBooth();
  const first = await seeded.deploy([seeded.build(OLD)]);
  expect(first.code, first.out).toBe(0);
  seeded.build(NEW);
  const probe = seeded.clone();
  try {
    const { code, out } = await probe.deploy([probe.artifact(NEW)]);
    expect(code, out).toBe(0);
    fullOutput = out.split('\n').filter(Boolean);
    const [run] = probe.runs(NEW);
    steps = probe.steps(run!);
  } finally {
    probe.dispose();
  }
}, 90_000);
afterAll(() => seeded.dispose());

/** What a booth must always be: one release answering, the links saying which, nothing half-done. */
function expectConsistent(expect: ExpectStatic, booth: FakeBooth): void {
  const running = booth.liveVersion();
  expect([OLD, NEW]).toContain(running);
  expect(booth.link('current')).toBe(running === NEW ? B : A);
  if (running === NEW) expect(booth.link('previous')).toBe(A);
  expect(existsSync(booth.home('boothdeck/deploy.state'))).toBe(false);
  expect(booth.leftovers().filter((f) => f.endsWith('.part') || f.startsWith('trial'))).toEqual([]);
}

describe.concurrent('a deploy that does not go to its end', () => {
  it('ends on a running release and consistent links, whichever line its output is cut after', async ({ expect }) => {
    expect(fullOutput.length).toBeGreaterThan(10);
    const received = fullOutput.findIndex((line) => line.startsWith('Received '));
    expect(received).toBeGreaterThan(0);
    const cuts = Array.from({ length: fullOutput.length }, (_, n) => n);
    await eachConcurrently(cuts, AT_ONCE, async (cut) => {
      const booth = seeded.clone();
      try {
        await booth.deploy([booth.artifact(NEW)], {}, cut);
        // The install may go on by itself: the booth's own `follow` waits for its result line.
        for (const run of booth.runs(NEW)) {
          const followed = await booth.onBooth(`boothdeck-deploy follow ${run}`);
          expect(followed.code, `cut after ${cut} lines: ${followed.out}`).toBe(0);
        }
        expectConsistent(expect, booth);
        // Nothing was sent yet: nothing changed. Once the upload has arrived, a lost connection
        // no longer stops the install.
        if (cut === 0) expect(booth.liveVersion(), `cut after ${cut} lines`).toBe(OLD);
        if (cut > received) expect(booth.liveVersion(), `cut after ${cut} lines`).toBe(NEW);
      } finally {
        booth.dispose();
      }
    });
  }, 180_000);

  it('killed at any step, it leaves the old or the new release answering, and the next run settles the links', async ({ expect }) => {
    const restart = steps.indexOf('systemctl --user restart boothdeck.service') + 1;
    const stop = steps.indexOf('systemctl --user stop boothdeck.service') + 1;
    expect(restart).toBeGreaterThan(5); // packages, trial start and guard come first
    expect(stop).toBeGreaterThan(5);
    expect(stop).toBeLessThan(restart); // the database snapshot is taken in between
    expect(restart).toBeLessThan(steps.length); // and /healthz is asked after it
    const kills = Array.from({ length: steps.length }, (_, n) => n + 1);
    await eachConcurrently(kills, AT_ONCE, async (step) => {
      const booth = seeded.clone();
      try {
        const { code, out } = await booth.deploy([booth.artifact(NEW)], { FAKE_KILL_AT: String(step) });
        expect(booth.calls()).toContain(`killed at step ${step}: ${steps[step - 1]}`);
        expect(code, out).toBe(70);
        expect(out).toContain('The install stopped without a result');
        // Until the stop the old release answers; from the restart on, the new one does. Killed
        // in between (the database snapshot), the booth is dark until the next run settles it.
        expect(booth.liveVersion(), `killed at step ${step}`).toBe(step <= stop ? OLD : step <= restart ? undefined : NEW);
        const recovered = await booth.onBooth('boothdeck-deploy recover');
        expect(recovered.code, recovered.out).toBe(0);
        expectConsistent(expect, booth);
        expect(booth.liveVersion()).toBe(step <= restart ? OLD : NEW);
      } finally {
        booth.dispose();
      }
    });
  }, 180_000);

  it('two deploys at once: the second is refused while the first installs, and the first ends with the right previous release', async ({
    expect,
  }) => {
    const booth = seeded.clone();
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
      booth.dispose();
    }
  }, 60_000);
});
