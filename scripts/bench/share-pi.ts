import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from '@playwright/test';
import { CaptureClient } from '../../server/capture/capture.client.js';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import { benchScript, limitCpu } from './cpu.js';
import { PHONE, firstScreen } from './gallery.js';
import type { RecordFn } from './print.js';
import { percentile, round } from './seed.js';
import { tempDir } from './setup.js';

/** A Pi 4's share for Boothdeck beside the capture app and Chromium: 30 % of one core (BOOTHDECK_BENCH_CPU_PERCENT). */
const PI_PERCENT = Number(process.env.BOOTHDECK_BENCH_CPU_PERCENT ?? 30);

/** The guests' experience with the service held to a Pi 4's share of one core. */
export async function piBudget(
  record: RecordFn,
  cleanups: string[],
  launchBrowser: () => Promise<Browser>,
  hasBrowser: boolean,
): Promise<void> {
  const data = tempDir('pi-data');
  cleanups.push(data);
  const pi = benchScript('pi-service.ts', [data, '40']);
  const exited = once(pi.child, 'exit');
  const limit = limitCpu(pi.child.pid as number, PI_PERCENT);
  const where = limit ? limit.how : `no CPU limit could be set here (run it under systemd-run -p CPUQuota=${PI_PERCENT}%)`;
  console.log(`      Pi budget: ${where}`);
  try {
    const { url, captureUrl, photoId } = await pi.lines.next<{ url: string; captureUrl: string; photoId: string }>();
    if (hasBrowser) {
      const browser = await launchBrowser();
      try {
        await firstScreen(browser, `${url}/`, PHONE);
        const screens: number[] = [];
        for (let i = 0; i < 3; i++) screens.push((await firstScreen(browser, `${url}/`, PHONE)).ms);
        record(
          `first screen on a phone, on a Pi's budget`,
          `median ${round(percentile(screens, 50))} ms of 3`,
          '≤ 1000 ms',
          percentile(screens, 50) <= 1000,
        );

        const page = await browser.newPage({ viewport: PHONE });
        await page.goto(`${url}/`);
        await page.getByTestId('gallery-live').waitFor();
        // From the capture app's announcement (DbInsert, heard by an observer of its own) to the tile.
        const announced = new Map<string, number>();
        const observer = new CaptureClient({ baseUrl: captureUrl, password: '0000', clock: createSystemClock() });
        const sub = observer.subscribe((e) => {
          const id = (e.data as { id?: string }).id;
          if (e.event === 'DbInsert' && id) announced.set(id, performance.now());
        });
        await sleep(1000);
        const delays: number[] = [];
        for (let i = 0; i < 5; i++) {
          const res = await fetch(`${captureUrl}/__sim/capture`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: '{}',
          });
          const item = (await res.json()) as { id: string };
          await page.locator(`[data-testid="photo-tile"][data-photo-id="${item.id}"] img`).waitFor({ timeout: 10_000 });
          const shown = performance.now();
          delays.push(shown - (announced.get(item.id) ?? shown));
          await sleep(1000);
        }
        sub.close();
        record(
          `new photo in an open gallery, on a Pi's budget`,
          `median ${round(percentile(delays, 50))} ms, max ${round(Math.max(...delays))} ms of 5`,
          '≤ 500 ms',
          percentile(delays, 50) <= 500,
        );
      } finally {
        await browser.close();
      }
    }
    const guests = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'print-client.ts'), url, photoId, '100', '5', '2000'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    guests.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await once(guests, 'exit');
    const { times } = JSON.parse(out) as { times: number[] };
    const p95 = percentile(times, 95);
    record(
      `print request, 100 guests at a human pace, on a Pi's budget`,
      `p50 ${round(percentile(times, 50))} ms, p95 ${round(p95)} ms`,
      'p95 ≤ 100 ms',
      p95 <= 100,
    );
  } finally {
    pi.child.kill('SIGTERM');
    await exited;
    limit?.release();
  }
}
