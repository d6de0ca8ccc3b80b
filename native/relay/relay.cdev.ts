import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { DeviceError } from '../device-error.js';
import { GPIO_CDEV_HELPER } from './gpio-cdev-helper.js';
import { relayLevel, type RelayOptions, type RelayPort } from './relay.port.js';

/** The labels of the SoC's GPIO chip: RP1 (Pi 5), BCM2711 (Pi 4), BCM2835/2837 (older). */
export const SOC_CHIP_LABELS = ['pinctrl-rp1', 'pinctrl-bcm2711', 'pinctrl-bcm2835'];
const READY_TIMEOUT_MS = 5000;
const EXIT_WAIT_MS = 2000;

export interface CdevRelayOptions {
  /** Where the gpiochip devices are: `/dev` on the board. */
  devDir?: string;
  /** Variables added to the helper's otherwise bare environment (tests). */
  env?: Record<string, string>;
}

function helperProblem(reply: string): DeviceError {
  if (reply === 'error denied') return new DeviceError('no-permission', 'no permission on /dev/gpiochip* (add the user to the gpio group)');
  if (reply === 'error nochip') return new DeviceError('no-gpio', 'no GPIO chip of a Raspberry Pi among /dev/gpiochip*');
  if (reply === 'error busy') return new DeviceError('driver-error', 'the relay line is held by another program');
  return new DeviceError('driver-error', `the GPIO helper failed: ${reply || 'no answer'}`);
}

/**
 * The relay through the GPIO character device, for kernels without the legacy sysfs export. The
 * line is held by a python3 helper (see gpio-cdev-helper.ts) that Boothdeck writes levels to; the
 * line's offset is the BCM number (no base on the character device). The helper drives the off
 * level as soon as Boothdeck is gone, whatever ended it.
 */
export async function createCdevRelay(options: RelayOptions, cdev: CdevRelayOptions = {}): Promise<RelayPort> {
  const devDir = cdev.devDir ?? '/dev';
  const chips = await readdir(devDir).then(
    (names) => names.filter((n) => n.startsWith('gpiochip')),
    () => [],
  );
  if (chips.length === 0) throw new DeviceError('no-gpio', 'this machine has neither the sysfs GPIO export nor a GPIO character device');
  const off = relayLevel(false, options.inverted);
  // Fixed program and arguments (numbers and Boothdeck's constants), and no secret in its environment.
  const args = ['-c', GPIO_CDEV_HELPER, SOC_CHIP_LABELS.join(','), String(options.gpio), String(off), devDir];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...cdev.env };
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn('python3', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (err) {
    throw new DeviceError('driver-missing', 'python3 is needed to drive GPIO through the character device', { cause: err });
  }
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => (exited = true));
  child.stdin.on('error', () => undefined);
  child.stderr.resume();
  const chip = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => finish(new DeviceError('driver-error', 'the GPIO helper did not answer')), READY_TIMEOUT_MS);
    const finish = (result: string | DeviceError): void => {
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      if (typeof result === 'string') resolve(result);
      else {
        child.kill('SIGTERM');
        reject(result);
      }
    };
    child.once('error', (err: NodeJS.ErrnoException) =>
      finish(
        err.code === 'ENOENT'
          ? new DeviceError('driver-missing', 'python3 is needed to drive GPIO through the character device', { cause: err })
          : new DeviceError('driver-error', err.message, { cause: err }),
      ),
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out = (out + chunk).slice(0, 4096);
      const line = out.split('\n')[0] ?? '';
      if (!out.includes('\n')) return;
      finish(line.startsWith('ready /') ? line.slice('ready '.length) : helperProblem(line.trim()));
    });
    child.once('exit', () => finish(helperProblem(out.trim())));
  });
  child.stdout.resume();
  let on = false;
  let closed = false;
  // A small write to an idle pipe leaves at once (libuv writes before queueing): the exit handlers' off is not lost.
  const write = (value: boolean): void => {
    if (exited) throw new Error('the GPIO helper has exited: the relay is no longer driven');
    child.stdin.write(`${relayLevel(value, options.inverted)}\n`);
    on = value;
  };
  return {
    driver: 'gpio-cdev',
    offSwitch: { interface: 'cdev', chip, line: options.gpio, off },
    async set(value) {
      if (!closed) write(value);
    },
    isOn: () => on,
    forceOffSync() {
      if (!closed && !exited) write(false);
    },
    async close() {
      if (closed) return;
      closed = true;
      on = false;
      // End of input: the helper drives the off level and exits.
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), EXIT_WAIT_MS);
      await exit;
      clearTimeout(timer);
    },
  };
}
