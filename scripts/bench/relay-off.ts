import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { percentile, round } from './seed.js';
import { tempDir } from './setup.js';
import type { RecordFn } from './print.js';

const script = path.resolve(import.meta.dirname, '../../deploy/boothdeck-relay-off');

/**
 * What a killed Boothdeck leaves to systemd: once the unit's processes are gone, ExecStopPost runs
 * boothdeck-relay-off. Timed from its start to the pin at its off level, on a stand-in sysfs pin
 * (the interface a Pi 4 on kernel 6.1 uses), 30 rounds.
 */
export async function relayOffAfterDeath(record: RecordFn, cleanups: string[]): Promise<void> {
  const top = tempDir('relay-off');
  cleanups.push(top);
  const pin = path.join(top, 'sys/class/gpio/gpio17');
  mkdirSync(pin, { recursive: true });
  const value = path.join(pin, 'value');
  const offSwitch = path.join(top, 'relay-off');
  writeFileSync(offSwitch, `interface=sysfs\nvalue=${value}\noff=1\n`);
  const times: number[] = [];
  let allOff = true;
  for (let i = 0; i < 30; i++) {
    writeFileSync(path.join(pin, 'direction'), 'out');
    writeFileSync(value, '0');
    const started = performance.now();
    const child = spawn(script, [offSwitch], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    const [code] = (await once(child, 'exit')) as [number | null];
    times.push(performance.now() - started);
    if (code !== 0 || readFileSync(value, 'utf8') !== '1') allOff = false;
  }
  record(
    'relay off after a kill: ExecStopPost from its start to the off level (30 rounds)',
    `min ${round(Math.min(...times))} ms, p50 ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms, max ${round(Math.max(...times))} ms${allOff ? '' : '; a round left the relay on'}`,
    '< 1000 ms',
    allOff && Math.max(...times) < 1000,
  );
}
