import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { MAX_RESCAN_PAGES, rescanPageBound } from '../../server/photos/photo-indexer.js';
import { buildTestApp } from '../support/app.js';
import { captureItem } from '../support/capture-item.js';

const item = (n: number): MediaItem => captureItem(n, `20261122-120000-${String(n).padStart(6, '0')}`);

/** A capture app whose list answers every page full, as `answer` says; the pages asked are counted. */
class FullPagesCapture extends FakeCaptureApp {
  pages = 0;
  constructor(private readonly answer: (offset: number, limit: number) => MediaItem[]) {
    super();
  }
  override async listMedia(offset: number, limit: number): Promise<MediaItem[]> {
    this.pages++;
    return this.answer(offset, limit);
  }
}

/** A booth folder holding `files` photos the index has never seen, none of them listed by the capture app. */
async function boothWith(files: number, capture: FakeCaptureApp) {
  const captureDataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-capture-'));
  mkdirSync(path.join(captureDataDir, 'media', 'processed_full'), { recursive: true });
  for (let n = 0; n < files; n++)
    writeFileSync(path.join(captureDataDir, `media/processed_full/20261122-130000-${String(n).padStart(6, '0')}.jpg`), 'jpeg');
  return buildTestApp({ capture, captureDataDir });
}

describe('the rescan pages the capture app’s list a bounded number of times', () => {
  it('stops at the first page that brings nothing new (a capture app that ignores offset)', async () => {
    const capture = new FullPagesCapture((_offset, limit) => Array.from({ length: limit }, (_, i) => item(i)));
    const t = await boothWith(3, capture);
    const report = await t.services.indexer.rescan();
    expect(capture.pages).toBe(2);
    expect(report).toMatchObject({ files: 3, added: 0, unresolved: 3 });
  });

  it('stops after as many items as its media folder holds files, when every offset brings new ones', async () => {
    let next = 0;
    const capture = new FullPagesCapture((_offset, limit) => Array.from({ length: limit }, () => item(1_000_000 + next++)));
    const t = await boothWith(3, capture);
    await t.services.indexer.rescan();
    expect(capture.pages).toBe(2);
  });

  it('never reads more than its hard bound of pages, however many files the folder holds', () => {
    expect(rescanPageBound(3)).toBe(2);
    expect(rescanPageBound(20_000)).toBe(41);
    expect(rescanPageBound(10_000_000)).toBe(MAX_RESCAN_PAGES);
  });
});
