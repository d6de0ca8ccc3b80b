import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopRunInstances } from '../capture-app/support/instances.js';
import type { CaptureTarget } from '../capture-app/support/target.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const d = (name: string): string => path.join(dir, name);

/**
 * A machine where run.sh has instances running (port: data folder's name): its pid and data
 * files, and a run.sh that notes each stop.
 */
function machine(instances: Record<string, string>): { target: CaptureTarget; stops: () => string[] } {
  dir = mkdtempSync(path.join(os.tmpdir(), 'capture-instances-'));
  const home = path.join(dir, 'home');
  mkdirSync(path.join(home, 'run'), { recursive: true });
  for (const [port, name] of Object.entries(instances)) {
    writeFileSync(path.join(home, 'run', `${port}.pid`), '1');
    writeFileSync(path.join(home, 'run', `${port}.data`), `${d(name)}\n`);
    mkdirSync(d(name), { recursive: true });
  }
  const log = path.join(dir, 'stops');
  const runSh = path.join(dir, 'run.sh');
  writeFileSync(runSh, `echo "$1 $PORT" >> '${log}'\n`);
  const target: CaptureTarget = { kind: 'real', runSh, ports: [18150, 18199], dataPrefix: path.join(dir, 'pba-'), home, why: '' };
  return { target, stops: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

describe('the end of a contract run against the real capture app', () => {
  it('stops the instances this run left and removes their data, and nobody else’s', () => {
    const { target, stops } = machine({ '18150': 'pba-run1-media-18150', '18151': 'pba-run2-media-18151', '18000': 'someone-else' });
    // A data folder of this run whose instance was already stopped, its folder left behind.
    mkdirSync(d('pba-run1-actions-18160'), { recursive: true });

    expect(stopRunInstances(target, 'run1')).toEqual(['18150']);
    expect(stops()).toEqual(['stop 18150']);
    expect(existsSync(d('pba-run1-media-18150'))).toBe(false);
    expect(existsSync(d('pba-run1-actions-18160'))).toBe(false);
    expect(existsSync(d('pba-run2-media-18151'))).toBe(true);
    expect(existsSync(d('someone-else'))).toBe(true);
  });

  it('does nothing for the simulator', () => {
    const { target, stops } = machine({ '18150': 'pba-run1-media-18150' });
    expect(stopRunInstances({ ...target, kind: 'simulator', runSh: null }, 'run1')).toEqual([]);
    expect(stops()).toEqual([]);
    expect(existsSync(d('pba-run1-media-18150'))).toBe(true);
  });
});
