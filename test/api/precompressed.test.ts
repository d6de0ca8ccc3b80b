import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../support/app.js';

const SCRIPT = `export const greeting = ${JSON.stringify('bonjour '.repeat(200))};\n`;
const raw = (res: request.Response, cb: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/** A renderer build with a script and the console's page, each beside its brotli and gzip variants. */
async function appWithVariants() {
  const t = await buildTestApp();
  const script = path.join(t.rendererDir, 'assets', 'gallery-abc123.js');
  writeFileSync(script, SCRIPT);
  const page = path.join(t.rendererDir, 'admin', 'index.html');
  for (const file of [script, page]) {
    writeFileSync(`${file}.br`, brotliCompressSync(readFileSync(file)));
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file)));
  }
  return t;
}

const variant = (t: { rendererDir: string }, ext: 'br' | 'gz'): Buffer =>
  readFileSync(path.join(t.rendererDir, 'assets', `gallery-abc123.js.${ext}`));

const get = (app: Parameters<typeof request>[0], url: string, acceptEncoding?: string) => {
  const req = request(app).get(url).buffer(true).parse(raw);
  return acceptEncoding === undefined ? req : req.set('Accept-Encoding', acceptEncoding);
};

describe('built assets are served precompressed, as the browser accepts', () => {
  it('sends brotli to a browser that takes it, even when it names gzip first', async () => {
    const t = await appWithVariants();
    const { app } = t;
    const res = await get(app, '/assets/gallery-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The bytes sent are the brotli file's (the test client decodes text by itself).
    expect(Number(res.headers['content-length'])).toBe(variant(t, 'br').length);
    expect(variant(t, 'br').length).toBeLessThan(SCRIPT.length / 4);
    expect((res.body as Buffer).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a browser without brotli, and the plain file to one that takes neither', async () => {
    const t = await appWithVariants();
    const { app } = t;
    const gz = await get(app, '/assets/gallery-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(gz.headers['content-length'])).toBe(variant(t, 'gz').length);
    expect((gz.body as Buffer).toString()).toBe(SCRIPT);

    for (const accept of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const plain = await get(app, '/assets/gallery-abc123.js', accept);
      expect(plain.status, accept).toBe(200);
      expect(plain.headers['content-encoding'], accept).toBeUndefined();
      expect(plain.headers['vary'], accept).toMatch(/Accept-Encoding/i);
      expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect((plain.body as Buffer).toString()).toBe(SCRIPT);
    }
  });

  it('gives each encoding its own validator, so a cache never mixes them up', async () => {
    const { app } = await appWithVariants();
    const br = await get(app, '/assets/gallery-abc123.js', 'br');
    const gz = await get(app, '/assets/gallery-abc123.js', 'gzip');
    const plain = await get(app, '/assets/gallery-abc123.js', 'identity');
    expect(new Set([br.headers['etag'], gz.headers['etag'], plain.headers['etag']]).size).toBe(3);
    const again = await request(app)
      .get('/assets/gallery-abc123.js')
      .set('Accept-Encoding', 'br')
      .set('If-None-Match', String(br.headers['etag']));
    expect(again.status).toBe(304);
  });

  it('serves the console page compressed too, as HTML, revalidated on every load', async () => {
    const t = await appWithVariants();
    const { app } = t;
    const res = await get(app, '/admin/events', 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    // The bytes sent are the brotli file's (the test client decodes HTML by itself).
    const built = readFileSync(path.join(t.rendererDir, 'admin', 'index.html.br'));
    expect(Number(res.headers['content-length'])).toBe(built.length);
    expect(brotliDecompressSync(built).toString()).toContain('<title>admin</title>');
    const head = await request(app).head('/admin').set('Accept-Encoding', 'gzip');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('gzip');
  });

  it('serves a file that has no variant as it is, and still refuses paths outside the build', async () => {
    const { app } = await appWithVariants();
    const res = await get(app, '/assets/admin-abc123.js', 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect((res.body as Buffer).toString()).toBe('console.log(1)');
    for (const url of ['/assets/..%2fgallery%2findex.html', '/assets/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json']) {
      const bad = await get(app, url, 'br, gzip');
      expect([400, 403, 404], url).toContain(bad.status);
      expect(bad.headers['content-encoding'], url).toBeUndefined();
    }
  });
});

describe('pages after the first', () => {
  it('takes a first page as large as a big screen needs, and no larger', async () => {
    const { app } = await buildTestApp();
    expect((await request(app).get('/api/gallery/photos?limit=200')).status).toBe(200);
    expect((await request(app).get('/api/gallery/photos?limit=201')).status).toBe(400);
  });
});
