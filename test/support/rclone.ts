import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface WebdavServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** `rclone serve webdav` on loopback, serving `dir` (behind basic auth with `auth`); resolves once it accepts connections. */
export async function startWebdav(dir: string, port?: number, auth?: { user: string; pass: string }): Promise<WebdavServer> {
  const chosen = port ?? (await freePort());
  mkdirSync(dir, { recursive: true });
  const login = auth ? ['--user', auth.user, '--pass', auth.pass] : [];
  const child: ChildProcess = spawn(
    'rclone',
    ['serve', 'webdav', dir, '--addr', `127.0.0.1:${chosen}`, '--config', '/dev/null', ...login],
    {
      stdio: 'ignore',
    },
  );
  // A slow board or a busy runner starts rclone in seconds, not milliseconds; only a failed start waits this long.
  const deadline = performance.now() + 60_000;
  while (!(await answers(chosen))) {
    if (child.exitCode !== null) throw new Error(`rclone serve webdav exited with ${child.exitCode}`);
    if (performance.now() > deadline) throw new Error('rclone serve webdav did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${chosen}`,
    port: chosen,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Boothdeck's own rclone configuration, with one WebDAV remote named `dav`. */
export function writeDavConfig(dataDir: string, url: string): string {
  const file = path.join(dataDir, 'rclone', 'rclone.conf');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `[dav]\ntype = webdav\nurl = ${url}\nvendor = other\n`);
  return file;
}
