import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { percentile, round } from './seed.js';
import { startBenchService, tempDir } from './setup.js';

export type RecordFn = (measure: string, value: string, target: string, ok: boolean) => void;

const SESSIONS = 100;
const QUOTA = 3;
const REQUESTS_PER_SESSION = 5;

/** Runs the guests' side in another process and reads its one-line report. */
async function guests(url: string, photoId: string, thinkMs: number): Promise<{ times: number[]; statuses: Record<string, number> }> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'print-client.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, url, photoId, String(SESSIONS), String(REQUESTS_PER_SESSION), String(thinkMs)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`the print bench client exited with ${code}`);
  return JSON.parse(out) as { times: number[]; statuses: Record<string, number> };
}

/**
 * 100 guest sessions at once, each asking for 5 single copies in a row with a quota of 3:
 * queueing latency, and accepted/refused counts that must match the quotas exactly.
 */
export async function printQueueing(record: RecordFn, cleanups: string[]): Promise<void> {
  // Guests tapping at a human pace (up to 2 s between taps), then every request at the same instant.
  await printRun(record, cleanups, 2000, 'guests at a human pace', 'p95 < 20 ms');
  await printRun(record, cleanups, 0, 'all at the same instant', 'printed only');
  await printerJustChosen(record, cleanups);
}

const CHOSEN_TRIALS = 50;

/**
 * A printer saved in the settings and a guest's print sent at the same instant, 50 times (from a
 * printer CUPS does not know each time): the print waits for the fresh reading of the printer
 * instead of being refused. Every answer must be 201; its latency is what the wait costs.
 */
async function printerJustChosen(record: RecordFn, cleanups: string[]): Promise<void> {
  const data = tempDir('print-chosen');
  cleanups.push(data);
  const handle = await startBenchService(data, `${data}/capture`, { printer: new FakePrinter() });
  try {
    handle.services.events.create({ name: 'Bench imprimante choisie' });
    await handle.services.settings.update({ print: { enable: true, quota: 1000, max_copies: 3, limits: { quota: 1000, max_copies: 5 } } });
    const photo = await handle.simulator?.capture('print');
    if (!photo) throw new Error('the bench needs the simulator');
    while (!handle.services.photoRepository.find(photo.id)) await new Promise((r) => setTimeout(r, 20));
    const visit = await fetch(`${handle.localUrl}/api/gallery/session`);
    const cookie = (visit.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    for (let i = 0; i < CHOSEN_TRIALS; i++) {
      await handle.services.settings.update({ print: { printer: 'Gone' } });
      const start = performance.now();
      const [, res] = await Promise.all([
        handle.services.settings.update({ print: { printer: 'Photo' } }),
        fetch(`${handle.localUrl}/api/gallery/photos/${photo.id}/print`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: cookie },
          body: JSON.stringify({ copies: 1 }),
        }),
      ]);
      times.push(performance.now() - start);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await res.arrayBuffer();
    }
    const accepted = statuses['201'] ?? 0;
    record(
      `guest print sent as a printer is saved (${CHOSEN_TRIALS} trials)`,
      `${accepted} × 201, ${statuses['503'] ?? 0} × 503; p50 ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms`,
      'all 201',
      accepted === CHOSEN_TRIALS,
    );
  } finally {
    await handle.stop();
  }
}

async function printRun(record: RecordFn, cleanups: string[], thinkMs: number, label: string, target: string): Promise<void> {
  const data = tempDir('print');
  cleanups.push(data);
  const handle = await startBenchService(data, `${data}/capture`, { printer: new FakePrinter() });
  try {
    handle.services.events.create({ name: 'Bench impression' });
    await handle.services.settings.update({ print: { enable: true, quota: QUOTA, max_copies: 3 } });
    const photo = await handle.simulator?.capture('print');
    if (!photo) throw new Error('the bench needs the simulator');
    while (!handle.services.photoRepository.find(photo.id)) await new Promise((r) => setTimeout(r, 20));

    const { times, statuses } = await guests(handle.localUrl, photo.id, thinkMs);
    const accepted = statuses['201'] ?? 0;
    const refused = statuses['429'] ?? 0;
    const other = times.length - accepted - refused;
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    record(
      `print request, ${SESSIONS} concurrent guest sessions, ${label}`,
      `p50 ${round(p50)} ms, p95 ${round(p95)} ms`,
      target,
      thinkMs === 0 || p95 < 20,
    );
    const expectAccepted = SESSIONS * QUOTA;
    const expectRefused = SESSIONS * (REQUESTS_PER_SESSION - QUOTA);
    record(
      `accepted / refused print requests (${label})`,
      `${accepted} accepted, ${refused} refused, ${other} other`,
      `${expectAccepted} / ${expectRefused}`,
      accepted === expectAccepted && refused === expectRefused && other === 0,
    );
    const queued = handle.services.print.summary();
    console.log(`      queue right after: ${queued.queued} waiting, ${queued.printing} printing`);
  } finally {
    await handle.stop();
  }
}
