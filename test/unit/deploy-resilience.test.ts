import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeBooth } from '../support/fake-booth.js';

const A = 'releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage';
const B = 'releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage';

/** A booth running 0.1.0-gaaaaaaa, copied for each case. */
let seeded: FakeBooth;
let fullOutput: string[];
beforeAll(() => {
  seeded = new FakeBooth();
  expect(seeded.deploy([seeded.build('0.1.0-gaaaaaaa')]).code).toBe(0);
  seeded.build('0.1.0-gbbbbbbb');
  // The lines a whole update prints, to cut its output after each of them.
  const probe = new FakeBooth();
  seeded.cloneInto(probe);
  const { code, out } = probe.deploy([probe.artifacts + '/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage']);
  expect(code, out).toBe(0);
  fullOutput = out.split('\n').filter(Boolean);
  probe.dispose();
});
afterAll(() => seeded.dispose());

const boothWithA = (): FakeBooth => {
  const booth = new FakeBooth();
  seeded.cloneInto(booth);
  return booth;
};

/** Waits (on the fake's own record, not a clock) until every detached install has ended. */
const settled = (booth: FakeBooth) => vi.waitFor(() => expect(booth.pendingJobs()).toEqual([]), { timeout: 30_000, interval: 50 });

/** What a booth must always be: one release answering, the links saying which, nothing half-done. */
function expectConsistent(booth: FakeBooth): void {
  const running = booth.liveVersion();
  expect(['0.1.0-gaaaaaaa', '0.1.0-gbbbbbbb']).toContain(running);
  expect(booth.link('current')).toBe(running === '0.1.0-gbbbbbbb' ? B : A);
  if (running === '0.1.0-gbbbbbbb') expect(booth.link('previous')).toBe(A);
  expect(existsSync(booth.home('boothdeck/deploy.state'))).toBe(false);
  expect(booth.leftovers().filter((f) => f.endsWith('.part') || f.startsWith('trial'))).toEqual([]);
}

describe('a deploy whose connection goes away', () => {
  it('ends on a running release and consistent links, whichever line the output is cut after', async () => {
    expect(fullOutput.length).toBeGreaterThan(10);
    const cuts = Array.from({ length: fullOutput.length }, (_, n) => n);
    const outcomes: string[] = [];
    // Two booths at a time: the machine running the tests has two cores.
    for (let i = 0; i < cuts.length; i += 2) {
      await Promise.all(
        cuts.slice(i, i + 2).map(async (cut) => {
          const booth = boothWithA();
          try {
            await booth.deployAsync([booth.artifacts + '/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage'], {}, cut);
            await settled(booth);
            expectConsistent(booth);
            outcomes[cut] = booth.liveVersion()!;
          } finally {
            booth.dispose();
          }
        }),
      );
    }
    // Once the install has begun, a lost connection no longer stops it.
    expect(outcomes.at(-1)).toBe('0.1.0-gbbbbbbb');
    expect(outcomes[0]).toBe('0.1.0-gaaaaaaa');
  }, 120_000);
});

describe('an install killed at any step', () => {
  it('leaves the old or the new release answering, and the next run settles the links', async () => {
    const outcomes = new Set<string>();
    // Every other call of a stand-in inside the install (each one is a line that does something).
    for (let call = 1; ; call += 2) {
      const booth = boothWithA();
      try {
        const { code, out } = booth.deploy([booth.artifacts + '/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage'], { FAKE_KILL_AT: String(call) });
        if (code === 0) break; // killed past its last step: the list is done
        expect(out, out).toContain('The install stopped without a result');
        expect(['0.1.0-gaaaaaaa', '0.1.0-gbbbbbbb']).toContain(booth.liveVersion());
        const recovered = booth.onBooth('boothdeck-deploy recover');
        expect(recovered.code, recovered.out).toBe(0);
        expectConsistent(booth);
        outcomes.add(booth.liveVersion()!);
      } finally {
        booth.dispose();
      }
    }
    expect([...outcomes].sort()).toEqual(['0.1.0-gaaaaaaa', '0.1.0-gbbbbbbb']);
  }, 120_000);
});

describe('two deploys at once', () => {
  it('the second is refused while the first installs, and the first ends with the right previous release', async () => {
    const booth = boothWithA();
    try {
      execFileSync('mkfifo', [booth.home('.gate')]);
      const first = booth.deployAsync([booth.build('0.1.0-gbbbbbbb', 'gate')]);
      // The first install holds the lock while its trial start waits at the gate.
      await vi.waitFor(() => expect(existsSync(booth.home('.gate-waiting'))).toBe(true), { timeout: 20_000, interval: 50 });
      const second = booth.deploy([booth.build('0.1.0-gccccccc')], { GITHUB_ACTIONS: 'true' });
      expect(second.code).toBe(73);
      expect(second.out).toMatch(/REFUSED: another deploy is under way on this booth \(0\.1\.0-gbbbbbbb-/);
      expect(second.out).toContain('::error title=Deploy refused::Another deploy is under way');
      writeFileSync(booth.home('.gate'), 'go');
      const done = await first;
      expect(done.code, done.out).toBe(0);
      expect(booth.link('current')).toBe(B);
      expect(booth.link('previous')).toBe(A);
      expect(booth.leftovers()).toEqual([]);
      expect(existsSync(booth.home('boothdeck/releases/Boothdeck-0.1.0-gccccccc-arm64.AppImage'))).toBe(false);
    } finally {
      booth.dispose();
    }
  }, 60_000);
});
