import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { CaptureFile } from '../../server/capture/capture.port.js';
import { createSystemClock } from '../../server/core/clock/clock.system.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import type { HardwareService } from '../../server/hardware/hardware.service.js';
import { DUTY_WINDOW_MS } from '../../server/hardware/relay.guard.js';
import { configureImageDecoding } from '../../server/media/image-decoder.js';
import { mediaVersion } from '../../server/photos/media-version.js';
import { PhotoMedia } from '../../server/photos/photo-media.js';
import type { PhotoRow } from '../../server/photos/photo.repository.js';
import { PosterStore } from '../../server/photos/poster.store.js';
import { ThumbnailStore } from '../../server/photos/thumbnail.store.js';
import { announcingPng, mp4Bytes } from '../../test/support/crafted-images.js';
import { photoRow } from '../../test/support/photo-row.js';
import { litPeriods, mergedPeriods, relayRig, worstWindow } from '../../test/support/relay-rig.js';
import { round } from './seed.js';
import type { RecordFn } from './print.js';

const MB = 1024 * 1024;
const rssMb = (): number => process.memoryUsage().rss / MB;
const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** What a hostile capture app answers for a thumbnail, in turn. */
const HOSTILE: (() => CaptureFile)[] = [
  () => ({ stream: Readable.from([announcingPng(16000, 16000)]), contentType: 'image/png', contentLength: undefined }),
  () => ({ stream: Readable.from([announcingPng(30000, 30000)]), contentType: 'image/png', contentLength: undefined }),
  () => ({ stream: Readable.from([mp4Bytes()]), contentType: 'image/jpeg', contentLength: undefined }),
  () => ({
    stream: Readable.from([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="60000" height="60000"/>')]),
    contentType: 'image/svg+xml',
    contentLength: undefined,
  }),
  // 600 MB, its length not announced.
  () => ({
    stream: Readable.from(
      (function* () {
        for (let sent = 0; sent < 600 * MB; sent += MB) yield Buffer.alloc(MB, 0xff);
      })(),
    ),
    contentType: 'image/png',
    contentLength: undefined,
  }),
];

class HostileCapture extends FakeCaptureApp {
  private n = 0;
  override async openMedia(): Promise<CaptureFile> {
    return (HOSTILE[this.n++ % HOSTILE.length] as () => CaptureFile)();
  }
}

/** RSS before and after 100 hostile thumbnails made three at a time, and its peak meanwhile. */
export async function hostileThumbnails(record: RecordFn): Promise<void> {
  configureImageDecoding();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-bench-hostile-'));
  const clock = createSystemClock();
  const versions = new Map<string, string>();
  const media = new PhotoMedia(
    new HostileCapture(),
    new ThumbnailStore(path.join(dir, 'thumbnails'), clock),
    new PosterStore(path.join(dir, 'posters'), { grab: async () => 'no-tool' }, clock, createRecordingLogger()),
    path.join(dir, 'capture'),
    (id) => versions.get(id),
  );
  const row = (n: number): PhotoRow => {
    const photo = photoRow(n);
    versions.set(photo.id, mediaVersion(photo));
    return photo;
  };
  await settle();
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 5);
  let placeholders = 0;
  for (let n = 0; n < 100; n += 3) {
    const batch = await Promise.all([n, n + 1, n + 2].filter((i) => i < 100).map((i) => media.thumbnail(row(i), 'background')));
    placeholders += batch.filter((p) => p.placeholder).length;
  }
  clearInterval(sampler);
  await settle();
  const after = rssMb();
  rmSync(dir, { recursive: true, force: true });
  record(
    'RSS around 100 hostile thumbnails (16000² and 30000² PNG, MP4, SVG, 600 MB), three at a time',
    `before ${round(before)} MB, peak ${round(peak)} MB, after ${round(after)} MB; ${placeholders}/100 placeholders`,
    'peak < before + 300 MB, after < before + 60 MB, 100 placeholders',
    peak < before + 300 && after < before + 60 && placeholders === 100,
  );
}

/** The longest relay on-time and the worst 30 s duty under each flood of the test buttons (simulated time). */
export async function relayFlood(record: RecordFn): Promise<void> {
  const floods: [string, (s: HardwareService, c: FakeCaptureApp) => void, number][] = [
    ['relay test {"ms":5000} every 2 s', (s) => s.testRelay(5000), 2000],
    ['flash test every 200 ms', (s) => s.testFlash(), 200],
    [
      'countdown from the capture app every 300 ms, flash forced',
      (_s, c) =>
        c.emit({ event: 'ProcessStateinfo', data: { source: 'start', target: 'counting', jobmodel: { typ: 'image', duration: 2 } } }),
      300,
    ],
  ];
  for (const [name, press, every] of floods) {
    const { clock, hardware, capture, service, run, stop } = await relayRig({ preflash_seconds: 3, hold_ms: 2000 });
    const total = 120_000;
    for (let t = 0; t < total; t += every) {
      try {
        press(service, capture);
      } catch {
        /* 409 relay_resting: the button is refused, as on the page */
      }
      await run(every);
    }
    const limits = service.diagnostic().relay.limits;
    const lit = mergedPeriods(litPeriods(hardware.relay.history, clock.monotonic()), 1000);
    const longest = Math.max(0, ...lit.map(([s, e]) => e - s));
    const worst = worstWindow(lit, DUTY_WINDOW_MS);
    await stop();
    record(
      `longest relay on-time under the ${name} (2 min; pre-flash 3 s, hold 2 s)`,
      `${round(longest / 1000)} s, worst ${DUTY_WINDOW_MS / 1000} s window ${round(worst / 1000)} s on`,
      `≤ ${limits.max_on_ms / 1000} s, ≤ ${limits.duty_max_on_ms / 1000} s per window`,
      longest <= limits.max_on_ms && worst <= limits.duty_max_on_ms,
    );
  }
}
