import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Hardware, fakeDrivers } from '../../native/hardware.js';
import { DeviceError } from '../../native/device-error.js';
import { FakeRelay } from '../../native/relay/relay.fake.js';
import type { RelayOptions, RelayPort } from '../../native/relay/relay.port.js';
import { CaptureLink } from '../../server/capture/capture-link.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { HardwareService } from '../../server/hardware/hardware.service.js';
import { relayOffSwitchPath } from '../../server/hardware/relay-off-switch.js';
import { defaultSettings } from '../../server/settings/settings.schema.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A relay that opens on GPIO 17 (its sysfs value file named in its off switch) and fails on any other pin. */
class BoardRelay extends FakeRelay {
  readonly offSwitch;
  constructor(options: RelayOptions) {
    super(options);
    this.offSwitch = {
      interface: 'sysfs' as const,
      value: `/sys/class/gpio/gpio529/value`,
      off: options.inverted ? (1 as const) : (0 as const),
    };
  }
}

async function service(runtime: string) {
  const drivers = {
    ...fakeDrivers(),
    mode: 'auto' as const,
    openRelay: async (options: RelayOptions): Promise<RelayPort> => {
      if (options.gpio !== 17) throw new DeviceError('driver-error', 'the line is held by another program');
      return new BoardRelay(options);
    },
  };
  const log = createRecordingLogger();
  const link = new CaptureLink(new FakeCaptureApp(), log);
  const settings = structuredClone(defaultSettings.hardware);
  const hw = new HardwareService(new Hardware(drivers), link, new FakeClock(), log, settings, relayOffSwitchPath(runtime));
  await hw.start(settings);
  return { hw, settings };
}

describe("the relay's off switch for the unit", () => {
  it('is written when the relay opens, private to the user, and rewritten with a new wiring', async () => {
    const runtime = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-runtime-'));
    dirs.push(runtime);
    const file = path.join(runtime, 'boothdeck/relay-off');
    const { hw, settings } = await service(runtime);
    expect(readFileSync(file, 'utf8')).toContain('interface=sysfs\nvalue=/sys/class/gpio/gpio529/value\noff=0\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    await hw.applySettings({ ...settings, relay: { gpio: 17, inverted: true } });
    expect(readFileSync(file, 'utf8')).toContain('off=1\n');
    await hw.stop();
  });

  it('goes when the relay reopens on a stand-in: the unit never drives a pin Boothdeck left', async () => {
    const runtime = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-runtime-'));
    dirs.push(runtime);
    const file = path.join(runtime, 'boothdeck/relay-off');
    const { hw, settings } = await service(runtime);
    expect(existsSync(file)).toBe(true);
    await hw.applySettings({ ...settings, relay: { gpio: 27, inverted: false } });
    expect(hw.diagnostic().devices.find((d) => d.device === 'relay')?.state).toBe('failed');
    expect(existsSync(file)).toBe(false);
    await hw.stop();
  });

  it('is written nowhere outside a systemd user session (no XDG_RUNTIME_DIR, or a relative one)', () => {
    expect(relayOffSwitchPath(undefined)).toBeUndefined();
    expect(relayOffSwitchPath('')).toBeUndefined();
    expect(relayOffSwitchPath('run/user/1000')).toBeUndefined();
    expect(relayOffSwitchPath('/run/user/1000')).toBe('/run/user/1000/boothdeck/relay-off');
  });
});
