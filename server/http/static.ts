import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { preferredEncoding } from './compress.js';

const noCache = (res: Response): void => {
  res.setHeader('Cache-Control', 'no-cache');
};

/** Variants written at build time (scripts/build/precompress.ts). */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The file to send for `file`: its brotli or gzip variant when one was built and the browser
 * accepts it, else the file itself. Sets the headers that go with the choice; the type is the
 * original file's, never the variant's.
 */
function negotiate(req: Request, res: Response, file: string): string {
  const built = ENCODINGS.filter((e) => existsSync(file + e.suffix));
  if (built.length === 0) return file;
  res.vary('Accept-Encoding');
  const best = preferredEncoding(
    req,
    built.map((e) => e.name),
  );
  const chosen = built.find((e) => e.name === best);
  if (!chosen) return file;
  res.setHeader('Content-Encoding', chosen.name);
  res.type(path.extname(file));
  return file + chosen.suffix;
}

/** The file under `root` a request names, or undefined when the path is not a plain one inside it. */
function fileUnder(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.split('/').includes('..')) return undefined;
  const full = path.resolve(root, `.${decoded}`);
  return full.startsWith(root + path.sep) ? full : undefined;
}

/** Serves precompressed variants of the files under `root`; anything else goes on to express.static. */
function precompressed(root: string, options: { maxAge: string; immutable: boolean }): RequestHandler {
  const resolvedRoot = path.resolve(root);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileUnder(resolvedRoot, req.path);
    if (!file || !existsSync(file)) return next();
    const send = negotiate(req, res, file);
    if (send === file) return next();
    if (file.endsWith('.html')) noCache(res);
    res.sendFile(send, { ...options, dotfiles: 'deny' }, (err?: Error) => err && next(err));
  };
}

/** What a page answers while the front end is not built. */
export function sendNotBuilt(res: Response): void {
  res.status(503).type('text/plain').send('The console is not built yet: run `npm run build`.');
}

/**
 * Serves the built front ends; the gallery's page itself is made by gallery-page.router.ts.
 * Hashed assets never change under their name, so they are cached for a year; the HTML pages
 * that name them are revalidated on every load.
 */
export function rendererRouter(rendererDir: string): Router {
  const router = Router();
  const consolePage = path.join(rendererDir, 'admin', 'index.html');
  const assets = path.join(rendererDir, 'assets');
  const assetCaching = { immutable: true, maxAge: '365d' };

  router.use('/assets', precompressed(assets, assetCaching));
  router.use('/assets', express.static(assets, { ...assetCaching, fallthrough: false, index: false }));

  router.get(['/admin', '/admin/{*rest}'], (req, res) => {
    noCache(res);
    if (!existsSync(consolePage)) sendNotBuilt(res);
    else res.sendFile(negotiate(req, res, consolePage));
  });
  router.use(precompressed(rendererDir, { maxAge: '1h', immutable: false }));
  router.use(
    express.static(rendererDir, { index: false, maxAge: '1h', setHeaders: (res, file) => file.endsWith('.html') && noCache(res) }),
  );
  return router;
}
