import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventGuard } from '../../../deploy/src/booth/checks.js';
import type { Ctx } from '../../../deploy/src/booth/context.js';
import { readSmall } from '../../../deploy/src/booth/files.js';
import { DeployLog } from '../../../deploy/src/booth/log.js';
import { boothPaths } from '../../../deploy/src/booth/paths.js';
import { Systemd } from '../../../deploy/src/booth/systemd.js';
import { readSettings } from '../../../deploy/src/rules/settings.js';
import type { UnitState } from '../../../deploy/src/rules/unit-state.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function home(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'booth-io-'));
  dirs.push(dir);
  return dir;
}

/** A port nothing listens on: Boothdeck is between two starts of its unit. */
async function silentPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The user's manager as it answers while the unit restarts: every look counted. */
class RestartingUnit extends Systemd {
  looks = 0;
  override async show(): Promise<UnitState> {
    this.looks++;
    return { active: 'activating', sub: 'auto-restart', restarts: 1, mainPid: 0 };
  }
}

describe("the booth side's own reads", () => {
  it("the guard's wait for a restart gap runs on the monotonic clock: a wall clock stepped forward (NTP at boot, a Pi without RTC) does not cut it short", async () => {
    const root = home();
    const paths = boothPaths(root);
    mkdirSync(paths.confDir, { recursive: true });
    mkdirSync(paths.root, { recursive: true });
    writeFileSync(paths.envFile, `BOOTHDECK_PORT=${await silentPort()}\n`);
    const systemd = new RestartingUnit();
    const ctx: Ctx = {
      paths,
      log: new DeployLog(paths, 'r', false),
      settings: { ...readSettings({}, {}), guardGapSeconds: 1.5 },
      systemd,
      self: { launcher: '/bin/true' },
      signal: new AbortController().signal,
    };
    // From the first look on, the wall clock is an hour ahead.
    const real = Date.now.bind(Date);
    let stepped = false;
    vi.spyOn(Date, 'now').mockImplementation(() => {
      const now = real() + (stepped ? 3_600_000 : 0);
      stepped = true;
      return now;
    });
    const verdict = await eventGuard(ctx, false);
    expect(systemd.looks).toBeGreaterThanOrEqual(2);
    expect(verdict).toMatchObject({ go: false, event: 'unknown' });
  });

  it('reads at most the bytes asked of a small file: a huge file or a device that never ends costs nothing', () => {
    const file = path.join(home(), 'request');
    writeFileSync(file, 'a'.repeat(100_000));
    expect(readSmall(file, 10)).toBe('a'.repeat(10));
    expect(readSmall('/dev/zero', 8)).toBe('\0'.repeat(8));
    expect(readSmall(path.join(home(), 'missing'))).toBeUndefined();
  });
});
