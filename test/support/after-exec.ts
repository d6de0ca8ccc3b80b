import { readlinkSync, realpathSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { readSchedulingOf } from '../../server/core/background/own-priority.js';

/**
 * A child's scheduling at the first look once it runs Node (its executable is this test's
 * `node`): a process started through a launcher such as `chrt` is looked at right after the
 * launcher's exec, before Node in it could have run any line of its own.
 */
export async function schedulingOnceNode(pid: number): Promise<{ nice: number; policy: number } | undefined> {
  const node = realpathSync(process.execPath);
  for (;;) {
    let exe: string;
    try {
      exe = readlinkSync(`/proc/${pid}/exe`);
    } catch {
      return undefined;
    }
    if (exe === node) return readSchedulingOf(pid);
    await sleep(1);
  }
}
