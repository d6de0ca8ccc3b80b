import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { startStaticServer } from '../../test/support/static-server.js';
import { launchBenchBrowser } from './browser.js';
import type { RecordFn } from './print.js';
import { grainyJpeg, seedCaptureFolder } from './seed.js';
import { firstRescan, seedEvents, startBenchService, tempDir } from './setup.js';

const PHOTOS = 50;
const PHONE = { width: 390, height: 844 };
/** A page a phone on a slow 3G link (about 50 KB/s) draws within 2 s: the budget of the first screen. */
const BUDGET_BYTES = 100_000;

const kb = (n: number): string => `${(n / 1000).toFixed(1)} kB`;

/** Bytes the browser fetched so far: the document and every resource, as their encoded body sizes (no compression on the test server). */
async function fetched(page: Page): Promise<{ html: number; images: { name: string; bytes: number }[] }> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const images = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      name: r.name,
      bytes: r.encodedBodySize,
    }));
    return { html: nav?.encodedBodySize ?? 0, images };
  });
}

/**
 * The published page of a 50-photo event at 390×844, as a guest's phone loads it from a plain
 * static server: the bytes before the first tile is drawn (the HTML with its inline CSS and JS,
 * and the first tile's thumbnail) and the whole first screen's; then the protected page's prompt.
 */
export async function publishPageWeight(record: RecordFn, cleanups: string[], executablePath: string): Promise<void> {
  if (!existsSync(executablePath)) {
    record('published page, bytes before the first tile', 'skipped: no Chromium', `< ${kb(BUDGET_BYTES)}`, false);
    return;
  }
  const capture = tempDir('page-capture');
  const data = tempDir('page-data');
  const remote = tempDir('page-remote');
  cleanups.push(capture, data, remote);
  const { photos, start } = await seedCaptureFolder(capture, PHOTOS, 1);
  const jpeg = await grainyJpeg({ grain: [360, 240], sigma: 50, blur: 0.8, size: [1800, 1200], quality: 88 });
  for (const p of photos) {
    const file = path.join(capture, p.item.processed);
    writeFileSync(file, jpeg);
    utimesSync(file, new Date(p.takenAt), new Date(p.takenAt));
  }
  seedEvents(data, 1, start);
  const handle = await startBenchService(data, capture, { publish: { settleMs: 0 } });
  const browser = await launchBenchBrowser(executablePath);
  try {
    await firstRescan(handle);
    for (const p of photos) await handle.services.photos.prepareThumbnail(p.item.id);
    await handle.services.publishing.service.update({ destination: { type: 'local', path: remote }, booth_name: 'bench', enabled: true });
    await handle.services.publishing.queue.whenIdle();
    const [token = ''] = readdirSync(path.join(remote, 'bench'));
    const server = await startStaticServer(remote);
    try {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await page.goto(`${server.url}/bench/${token}/`, { waitUntil: 'load' });
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('a.t img')]
          .filter((img) => img.getBoundingClientRect().top < innerHeight)
          .every((img) => img.complete && img.naturalWidth > 0),
      );
      const { html, images } = await fetched(page);
      const visible = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLImageElement>('a.t img')]
          .filter((img) => img.getBoundingClientRect().top < innerHeight)
          .map((img) => img.currentSrc),
      );
      const first = images.find((i) => i.name.includes('/thumbs/'))?.bytes ?? 0;
      const screen = html + images.filter((i) => visible.includes(i.name)).reduce((n, i) => n + i.bytes, 0);
      const all = html + images.reduce((n, i) => n + i.bytes, 0);
      record(
        `published page of ${PHOTOS} photos at 390×844, bytes before the first tile is drawn (HTML with its CSS and JS, first thumbnail)`,
        `${kb(html + first)} (HTML ${kb(html)}, thumbnail ${kb(first)}); first screen ${kb(screen)} (${visible.length} tiles); fetched by then ${kb(all)} (${images.length} images: Chromium loads lazy tiles well ahead)`,
        `< ${kb(BUDGET_BYTES)}`,
        html + first < BUDGET_BYTES,
      );
      await context.close();

      // The same event protected: the prompt is all a guest loads before typing the password.
      const password = 'banc essai page protegee';
      const put = await handle.services.publishing.service.updateEvent(handle.services.events.list().events[0]?.slug ?? '', { password });
      if (!put.password_set) throw new Error('the password was not set');
      await handle.services.publishing.queue.whenIdle();
      const locked = await browser.newContext({ viewport: PHONE });
      const prompt = await locked.newPage();
      await prompt.goto(`${server.url}/bench/${token}/`, { waitUntil: 'load' });
      const before = await fetched(prompt);
      const t0 = Date.now();
      await prompt.getByTestId('unlock-password').fill(password);
      await prompt.getByTestId('unlock-button').click();
      await prompt.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('a.t img');
        return img !== null && img.complete && img.naturalWidth > 0;
      });
      const openMs = Date.now() - t0;
      const after = await fetched(prompt);
      const sealedFirst = after.images.find((i) => i.name.includes('/thumbs/'))?.bytes ?? 0;
      record(
        `protected page of ${PHOTOS} photos at 390×844, bytes before the first tile is drawn (prompt and sealed list, first sealed thumbnail)`,
        `${kb(before.html + sealedFirst)} (page ${kb(before.html)}, thumbnail ${kb(sealedFirst)}); first tile ${openMs} ms after the password (PBKDF2 600,000 rounds)`,
        `< ${kb(BUDGET_BYTES)}`,
        before.html + sealedFirst < BUDGET_BYTES,
      );
      await locked.close();
    } finally {
      await server.close();
    }
  } finally {
    await browser.close();
    await handle.stop();
  }
}
