// The line comes from the server's own relay guard, so this runs with the server's tests, not the renderer's.
import { describe, expect, it } from 'vitest';
import { logSummary } from '../../renderer/admin/components/dashboard/log-summary.js';
import { FakeRelay } from '../../native/relay/relay.fake.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { RelayGuard } from '../../server/hardware/relay.guard.js';

describe('the log panel in words', () => {
  it('says the flash was switched off for staying on too long, from the very line the relay guard writes', () => {
    const clock = new FakeClock();
    const relay = new FakeRelay(undefined, () => clock.monotonic());
    const log = createRecordingLogger();
    const guard = new RelayGuard(
      () => relay,
      clock,
      log,
      () => 1000,
    );
    expect(guard.on(5000)).toBe(true);
    clock.advance(1000);
    const warned = log.lines.filter((l) => l.startsWith('warn ')).map((l) => l.slice('warn '.length));
    expect(warned).toHaveLength(1);
    expect(logSummary({ time: '2026-11-26T20:00:00.000Z', level: 'warn', message: warned[0] ?? '', error: null })).toBe(
      'logs.flashWatchdog',
    );
  });
});
