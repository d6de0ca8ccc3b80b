import { setImmediate as flush } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createFakeHardware } from '../../native/hardware.js';
import { CaptureLink } from '../../server/capture/capture-link.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { HardwareService } from '../../server/hardware/hardware.service.js';
import { defaultSettings } from '../../server/settings/settings.schema.js';

describe('the lux sensor’s retry', () => {
  it('reopens a failed sensor every 30 s of real time, though the wall clock was set back', async () => {
    const clock = new FakeClock();
    const hardware = createFakeHardware(() => clock.now());
    // On a board (mode auto) a failed sensor is reopened now and then.
    Object.defineProperty(hardware, 'mode', { get: () => 'auto' });
    let reopened = 0;
    hardware.retryLux = async () => {
      reopened++;
    };
    hardware.lux.failure = Object.assign(new Error('Remote I/O error'), { code: 'EREMOTEIO' });
    const log = createRecordingLogger();
    const link = new CaptureLink(new FakeCaptureApp(), log);
    const service = new HardwareService(hardware, link, clock, log, structuredClone(defaultSettings.hardware));
    await service.start();
    const run = async (ms: number): Promise<void> => {
      for (let t = 0; t < ms; t += 100) {
        clock.advance(100);
        await flush();
      }
    };
    await run(1000);
    expect(reopened).toBe(1);
    clock.stepWall(-2 * 3600_000);
    await run(31_000);
    expect(reopened).toBe(2);
    await service.stop();
  });
});
