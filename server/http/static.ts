import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';

const noCache = (res: Response): void => {
  res.setHeader('Cache-Control', 'no-cache');
};

/**
 * Serves the two built front ends. Hashed assets never change under their name, so they are
 * cached for a year; the HTML pages that name them are revalidated on every load.
 */
export function rendererRouter(rendererDir: string): Router {
  const router = Router();
  const page = (name: 'admin' | 'gallery'): string => path.join(rendererDir, name, 'index.html');

  router.use(
    '/assets',
    express.static(path.join(rendererDir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      fallthrough: false,
      index: false,
    }),
  );

  const sendPage = (name: 'admin' | 'gallery') => (_req: express.Request, res: Response) => {
    noCache(res);
    const file = page(name);
    if (!existsSync(file)) {
      res.status(503).type('text/plain').send('The console is not built yet: run `npm run build`.');
      return;
    }
    res.sendFile(file);
  };

  router.get(['/admin', '/admin/{*rest}'], sendPage('admin'));
  router.get('/', sendPage('gallery'));
  router.use(
    express.static(rendererDir, { index: false, maxAge: '1h', setHeaders: (res, file) => file.endsWith('.html') && noCache(res) }),
  );
  return router;
}
