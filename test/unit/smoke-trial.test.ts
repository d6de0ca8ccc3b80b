import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { deployKit, isRunning, repo } from '../support/fake-booth.js';

/** A folder of the case's own, removed when it ends. */
function folderFor({ onTestFinished }: TestContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-smoke-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A stand-in AppImage: Node serving /healthz on BOOTHDECK_PORT, started only as the deploy starts a
 * trial (its switches, no display, fake hardware, extracted since CI has no FUSE), stopped by SIGTERM.
 */
function fakeAppImage(dir: string, reports: string): string {
  const file = path.join(dir, 'Boothdeck-built.AppImage');
  writeFileSync(
    file,
    `#!${process.execPath}
const http = require('node:http');
const fs = require('node:fs');
const args = process.argv.slice(2).join(' ');
const env = process.env;
if (args !== '--no-sandbox --boothdeck-trial --ozone-platform=headless') process.exit(3);
if (env.DISPLAY || env.WAYLAND_DISPLAY || env.BOOTHDECK_HARDWARE !== 'fake' || env.APPIMAGE_EXTRACT_AND_RUN !== '1') process.exit(4);
fs.writeFileSync(${JSON.stringify(path.join(dir, 'pid'))}, String(process.pid));
const server = http.createServer((_req, res) => res.end(JSON.stringify({ ok: true, version: ${JSON.stringify(reports)}, event_active: false })));
server.listen(Number(env.BOOTHDECK_PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`,
  );
  chmodSync(file, 0o755);
  return file;
}

/** A port free on this machine now, as the booth's live port's trial twin (+ 10000). */
async function freeTrialPort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (port > 10000 && port <= 65535) return port;
  }
}

async function smoke(dir: string, appImage: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn('sh', [path.join(repo, 'scripts/smoke-trial.sh'), appImage, '0.1.0-gaaaaaaa'], {
    env: { PATH: process.env.PATH ?? '', TMPDIR: dir, DISPLAY: ':99', SMOKE_KIT: await deployKit(), ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe.concurrent('scripts/smoke-trial.sh (the pipeline tries the deploy trial start on each build)', () => {
  it('passes when the release answers /healthz with its version windowless, and stops it', async (context) => {
    const { expect } = context;
    const dir = folderFor(context);
    const trial = await freeTrialPort();
    const { code, out } = await smoke(dir, fakeAppImage(dir, '0.1.0-gaaaaaaa'), { SMOKE_LIVE_PORT: String(trial - 10000) });
    expect(code, out).toBe(0);
    expect(out).toContain(`Trial start: 0.1.0-gaaaaaaa answered /healthz on port ${trial}: ok`);
    expect(isRunning(Number(readFileSync(path.join(dir, 'pid'), 'utf8')))).toBe(false);
  });

  it('fails, within its time limit, when another version answers', async (context) => {
    const { expect } = context;
    const dir = folderFor(context);
    const trial = await freeTrialPort();
    const { code, out } = await smoke(dir, fakeAppImage(dir, '0.0.9-g0000000'), {
      SMOKE_LIVE_PORT: String(trial - 10000),
      SMOKE_TRIAL_TIMEOUT: '3',
    });
    expect(code).toBe(1);
    expect(out).toContain(`Trial start: 0.1.0-gaaaaaaa did not answer /healthz on port ${trial}`);
    expect(out).toContain('FAIL: the trial start of 0.1.0-gaaaaaaa did not pass');
  });
});
