import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { DESKTOP, PHONE, describeScreen, firstScreen } from './gallery.js';
import type { RecordFn } from './print.js';
import { seedCaptureFolder } from './seed.js';
import { seedEvents, tempDir } from './setup.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';

const PHOTOS = 1000;
const TARGET_MS = 500;

/** Thumbnail files under a data folder, however they are spread over subfolders. */
function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, entry) => n + (entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1),
    0,
  );
}

/**
 * A guest's first visit right after the service indexed an event of 1,000 camera-sized photos
 * (about 3.7 MB, 4000×3000, each): one fresh service per screen size, the visit as soon as its
 * index has every photo, in a new browser context; and, for the whole picture, a visit as soon as
 * the index has its first photos (the guest who does not wait for it).
 */
export async function firstVisitAfterIndex(record: RecordFn, cleanups: string[], launchBrowser: () => Promise<Browser>): Promise<void> {
  const capture = tempDir('firstvisit-capture');
  cleanups.push(capture);
  console.log(`Seeding ${PHOTOS} camera-sized photos for a first visit…`);
  const { start } = await seedCaptureFolder(capture, PHOTOS, 1, undefined, PHOTOS);
  /** A fresh service on the seeded folder, once its index has `count` photos. */
  const visitAfter = async (count: number, visit: (service: ServiceProcess, data: string) => Promise<void>): Promise<void> => {
    const data = tempDir('firstvisit-data');
    cleanups.push(data);
    seedEvents(data, 1, start);
    const service = await startServiceProcess(data, capture, count);
    try {
      await visit(service, data);
    } finally {
      await service.stop();
    }
  };
  const browser = await launchBrowser();
  try {
    for (const [name, viewport] of [
      ['phone 390×844', PHONE],
      ['1280×800', DESKTOP],
    ] as const) {
      await visitAfter(PHOTOS, async (service, data) => {
        const ready = countFiles(path.join(data, 'thumbnails'));
        const s = await firstScreen(browser, `${service.url}/`, viewport);
        // Read after the visit: the service logs its rescan a moment after its count is complete.
        const rescan = service.rescanMs === undefined ? 'its length not logged' : `${service.rescanMs} ms`;
        record(
          `first visit right after indexing ${PHOTOS} camera-sized photos, ${name}`,
          `${describeScreen(s)}; index ${rescan}, ${ready} thumbnails made in it`,
          `≤ ${TARGET_MS} ms`,
          s.ms <= TARGET_MS,
        );
      });
      // The guest who does not wait for the index: the visit as soon as its first photos are in.
      await visitAfter(1, async (service) => {
        const s = await firstScreen(browser, `${service.url}/`, viewport);
        record(`first visit as soon as the index has its first photos, ${name}`, describeScreen(s), 'printed only', true);
      });
    }
  } finally {
    await browser.close();
  }
}
