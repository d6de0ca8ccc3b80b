import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterEach } from 'vitest';
import type { PublishOverview } from '../../server/contract/publish.contract.js';
import { startSimApp, type SimApp } from './sim-app.js';
import { startWebdav, type WebdavServer } from './rclone.js';

type Method = 'get' | 'put' | 'post' | 'delete';

/**
 * What the publishing API tests share: one app at a time on the simulator, WebDAV remotes and
 * folders made for the test, all closed or removed after each test.
 */
export function publishHarness(prefix: string) {
  let current: SimApp | undefined;
  const davs: WebdavServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await current?.close();
    current = undefined;
    for (const dav of davs.splice(0)) await dav.stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const app = (): SimApp => {
    if (!current) throw new Error('no app');
    return current;
  };
  const admin = (method: Method, p: string, body?: object) =>
    request(app().app)[method](`/api/admin${p}`).set('Cookie', app().cookie).send(body);
  return {
    app,
    admin,
    start: async (...options: Parameters<typeof startSimApp>): Promise<SimApp> => (current = await startSimApp(...options)),
    tempDir: (): string => {
      const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    webdav: async (...args: Parameters<typeof startWebdav>): Promise<WebdavServer> => {
      const dav = await startWebdav(...args);
      davs.push(dav);
      return dav;
    },
    overview: async (): Promise<PublishOverview> => (await admin('get', '/publish')).body as PublishOverview,
    settle: (): Promise<void> => app().services.publishing.queue.whenIdle(),
  };
}
