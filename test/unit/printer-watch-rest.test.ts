import { setImmediate as nextTurn } from 'node:timers/promises';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { defaultWatchOptions, PrinterWatch } from '../../server/print/printer-watch.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { startSimApp } from '../support/sim-app.js';

/** A watch on a fake printer and a fake clock, read by someone while `watched.now` is true. */
async function restingWatch(restEveryMs?: number): Promise<{
  clock: FakeClock;
  printer: FakePrinter;
  watch: PrinterWatch;
  watched: { now: boolean };
  told: string[];
}> {
  const clock = new FakeClock();
  const printer = new FakePrinter();
  const watched = { now: false };
  const told: string[] = [];
  const watch = new PrinterWatch(
    printer,
    () => ({ printer: null, error_policy: 'retry-current-job' }),
    clock,
    createRecordingLogger(),
    (status) => told.push(status.state),
    {
      ...defaultWatchOptions,
      attentive: () => watched.now,
      ...(restEveryMs === undefined ? {} : { restEveryMs }),
    },
  );
  watch.start();
  await nextTurn();
  return { clock, printer, watch, watched, told };
}

/** Holds the printer's next listing until `release`: a question to CUPS under way. */
function gate(printer: FakePrinter): { release: () => void } {
  const list = printer.list.bind(printer);
  let release = (): void => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  printer.list = async () => {
    if (first) {
      first = false;
      const answer = await list();
      await opened;
      return answer;
    }
    return list();
  };
  return { release: () => release() };
}

/** Moves the fake clock `ms`, a second at a time, letting each question CUPS is asked settle. */
async function pass(clock: FakeClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    clock.advance(1000);
    await nextTurn();
  }
}

describe('the printer watch at rest', () => {
  it('asks CUPS nothing while no one reads the printer’s state, every 2 s once someone does', async () => {
    const { clock, printer, watch, watched } = await restingWatch();
    const first = printer.listed;
    await pass(clock, 10 * 60_000);
    expect(printer.listed - first).toBe(0);

    // Someone opens a console: the watch is told (the stream's slot), asks at once, then every 2 s.
    watched.now = true;
    watch.attend();
    await nextTurn();
    const attentive = printer.listed;
    expect(attentive - first).toBe(1);
    await pass(clock, 10_000);
    expect(printer.listed - attentive).toBe(5);

    // The console closes: the question under way is the last one.
    watched.now = false;
    await pass(clock, 2000);
    const resting = printer.listed;
    await pass(clock, 10 * 60_000);
    expect(printer.listed - resting).toBe(0);
  });

  it('asks at a resting pace when the host wants one', async () => {
    const { clock, printer } = await restingWatch(30_000);
    const first = printer.listed;
    await pass(clock, 60_000);
    expect(printer.listed - first).toBe(2);
  });

  it('asks at once when someone reads the state of a resting watch', async () => {
    const { clock, printer, watch, watched } = await restingWatch();
    const before = printer.listed;
    await pass(clock, 5000);
    expect(printer.listed).toBe(before);
    watched.now = true;
    watch.status();
    await nextTurn();
    expect(printer.listed).toBe(before + 1);
    await pass(clock, 4000);
    expect(printer.listed).toBe(before + 3);
  });

  it('a reader who arrives while CUPS is being asked is not left with that answer for half a minute', async () => {
    const { clock, printer, watch, told } = await restingWatch();
    await pass(clock, 30_000);
    const gated = gate(printer);
    // A resting question is under way when someone opens a page; the printer stops meanwhile.
    watch.status();
    await nextTurn();
    printer.printers[0] = { ...printer.printers[0]!, state: 'stopped', reasons: ['media-empty-error'] };
    watch.status();
    gated.release();
    await nextTurn();
    // The page listens from here on, without asking again: the stop reaches it within 2 s.
    await pass(clock, 2000);
    expect(told.at(-1)).toBe('stopped');
  });

  it('asking again after a change waits for the question under way, then asks anew', async () => {
    const { printer, watch } = await restingWatch();
    const gated = gate(printer);
    const before = watch.refresh();
    printer.printers[0] = { ...printer.printers[0]!, state: 'stopped', reasons: [] };
    const after = watch.reread();
    gated.release();
    expect([(await before).state, (await after).state]).toEqual(['idle', 'stopped']);
  });

  it('keeps asking every 2 s when no one says whether the state is read', async () => {
    const clock = new FakeClock();
    const printer = new FakePrinter();
    const watch = new PrinterWatch(
      printer,
      () => ({ printer: null, error_policy: 'retry-current-job' }),
      clock,
      createRecordingLogger(),
      () => undefined,
    );
    watch.start();
    await nextTurn();
    const before = printer.listed;
    await pass(clock, 10_000);
    expect(printer.listed - before).toBe(5);
    watch.stop();
  });
});

describe('who counts as reading the printer’s state, as the service is composed', () => {
  it('a console’s live stream, a job under way or a guest opening the print dialog; not a guest’s gallery, not the service’s own listeners', async () => {
    const printer = new FakePrinter();
    const clock = new FakeClock();
    const t = await startSimApp({ printer, clock, print: { watchMs: 2000 } });
    try {
      t.services.printWorker.start();
      // The start's own reading (and the worker's first look at its queue) settle first.
      await pass(clock, 4000);
      const listedOver = async (ms: number): Promise<number> => {
        const before = printer.listed;
        await pass(clock, ms);
        return printer.listed - before;
      };
      // The hub has listeners of its own (the online gallery's), and a guest's gallery holds its
      // stream: no console, no job, the watch asks nothing.
      expect(t.services.hub.listenerCount('admin')).toBeGreaterThan(0);
      const guest = t.services.hub.slots.acquire('192.168.4.30', false, 'gallery');
      expect(await listedOver(60_000)).toBe(0);

      // A guest opening the print dialog reads the session, and the printer's state with it: asked at once, once.
      const before = printer.listed;
      await request(t.app).get('/api/gallery/session').expect(200);
      await nextTurn();
      expect(printer.listed - before).toBe(1);
      expect(await listedOver(60_000)).toBe(0);
      guest();

      // A console opening its stream: asked at once, then every 2 s while it stays.
      const atOpen = printer.listed;
      const release = t.services.hub.slots.acquire('192.168.4.20', false, 'admin');
      await nextTurn();
      expect(printer.listed - atOpen).toBe(1);
      expect(await listedOver(10_000)).toBe(5);
      release();
      await pass(clock, 2000);
      expect(await listedOver(60_000)).toBe(0);
    } finally {
      await t.close();
    }
  });
});
