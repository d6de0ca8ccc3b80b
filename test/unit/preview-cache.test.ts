import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CaptureAppPort, CaptureFile } from '../../server/capture/capture.port.js';
import { MAX_BUFFERING, MAX_KEPT, PreviewCache } from '../../server/photos/preview.cache.js';

/** A capture app whose previews are `size` bytes and arrive only when the test lets them. */
function slowCapture(size: number): { port: CaptureAppPort; opened: string[]; release: () => void } {
  const opened: string[] = [];
  const streams: PassThrough[] = [];
  const port = {
    openMedia: (_variant: string, id: string): Promise<CaptureFile> => {
      opened.push(id);
      const stream = new PassThrough();
      streams.push(stream);
      return Promise.resolve({ stream, contentType: 'image/jpeg', contentLength: size });
    },
  } as unknown as CaptureAppPort;
  return { port, opened, release: () => streams.splice(0).forEach((s) => s.end(Buffer.alloc(size, 7))) };
}

describe("the capture app's previews kept for phones", () => {
  it('shares one fetch among the phones opening the same photo, and keeps it for the next', async () => {
    const capture = slowCapture(200_000);
    const cache = new PreviewCache(capture.port);
    const asked = Array.from({ length: 200 }, () => cache.get('p1', 'v1', () => true));
    await new Promise((resolve) => setImmediate(resolve));
    capture.release();
    const answers = await Promise.all(asked);
    expect(capture.opened).toEqual(['p1']);
    expect(answers.every((a) => 'data' in a && a.data.length === 200_000)).toBe(true);
    expect('data' in (await cache.get('p1', 'v1', () => true))).toBe(true);
    expect(capture.opened).toEqual(['p1']);
  });

  it(`reads at most ${MAX_BUFFERING} previews into memory at once: phones opening many different photos are streamed to`, async () => {
    const capture = slowCapture(1_000_000);
    const cache = new PreviewCache(capture.port);
    const asked = Array.from({ length: 200 }, (_, i) => cache.get(`p${i}`, 'v1', () => true));
    await new Promise((resolve) => setImmediate(resolve));
    capture.release();
    const answers = await Promise.all(asked);
    const buffered = answers.filter((a) => 'data' in a);
    const streamed = answers.filter((a): a is { remote: CaptureFile } => 'remote' in a);
    expect(buffered).toHaveLength(MAX_BUFFERING);
    expect(streamed).toHaveLength(200 - MAX_BUFFERING);
    // A streamed answer is the capture app's bytes, whole.
    const chunks: Buffer[] = [];
    for await (const chunk of streamed[0]!.remote.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).length).toBe(1_000_000);
  });

  it('never keeps a preview for a version the photo no longer has, and forgets a replaced one', async () => {
    const capture = slowCapture(1000);
    const cache = new PreviewCache(capture.port);
    const stale = cache.get('p1', 'v1', () => false);
    await new Promise((resolve) => setImmediate(resolve));
    capture.release();
    await stale;
    const next = cache.get('p1', 'v1', () => true);
    await new Promise((resolve) => setImmediate(resolve));
    capture.release();
    await next;
    expect(capture.opened).toEqual(['p1', 'p1']);
    cache.forget('p1', 'v1');
    const after = cache.get('p1', 'v1', () => true);
    await new Promise((resolve) => setImmediate(resolve));
    capture.release();
    await after;
    expect(capture.opened).toEqual(['p1', 'p1', 'p1']);
  });

  it(`keeps ${MAX_KEPT} previews at most however small, the least recently opened going first`, async () => {
    const capture = slowCapture(10);
    const cache = new PreviewCache(capture.port);
    const open = async (id: string): Promise<void> => {
      const asked = cache.get(id, 'v1', () => true);
      await new Promise((resolve) => setImmediate(resolve));
      capture.release();
      await asked;
    };
    for (let i = 0; i <= MAX_KEPT; i++) await open(`p${i}`);
    expect(capture.opened).toHaveLength(MAX_KEPT + 1);
    // The newest are still kept; the first one opened is fetched again.
    await open(`p${MAX_KEPT}`);
    expect(capture.opened).toHaveLength(MAX_KEPT + 1);
    await open('p0');
    expect(capture.opened).toHaveLength(MAX_KEPT + 2);
  });
});
