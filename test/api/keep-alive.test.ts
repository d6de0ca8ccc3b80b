import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeHardware } from '../../native/hardware.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';
import { loadConfig } from '../../server/config.js';
import { createRecordingLogger } from '../../server/core/logger.js';
import { startService, type ServiceHandle } from '../../server/service.js';
import { FakeSystem } from '../../server/system/system.fake.js';

let handle: ServiceHandle | undefined;
let dataDir = '';
afterEach(async () => {
  await handle?.stop();
  handle = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** One answer's head and body on a kept connection (the health check answers with a length). */
function ask(socket: net.Socket, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? Number.NaN);
      if (head >= 0 && text.length >= head + 4 + length) {
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve(text);
      }
    };
    const onClose = (): void => reject(new Error('the booth closed the connection'));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

describe('a guest’s connection', () => {
  // Node's own keep-alive timer runs on real time, which no fake clock reaches: the test waits
  // longer than Node's 5 s default and far less than the booth's 30 s, so a slow machine cannot
  // make it pass or fail by its speed.
  it('stays open while the guest looks at a photo for a few seconds, and serves the next request', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-keep-alive-'));
    const config = loadConfig({
      BOOTHDECK_PORT: '0',
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_DATA_DIR: dataDir,
      BOOTHDECK_ADMIN_PIN: '1234',
    });
    handle = await startService(config, {
      capture: new FakeCaptureApp(),
      system: new FakeSystem(),
      hardware: createFakeHardware(),
      log: createRecordingLogger(),
    });
    const socket = net.connect(Number(new URL(handle.localUrl).port), '127.0.0.1');
    socket.on('error', () => undefined);
    expect(await ask(socket, '/healthz')).toMatch(/^HTTP\/1\.1 200/);
    await sleep(7000);
    expect(await ask(socket, '/healthz')).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
  }, 60_000);
});
