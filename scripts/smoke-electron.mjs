// Run by scripts/smoke-appimage.sh under Xvfb: launches the packaged kiosk with Playwright's
// Electron driver, on the simulator (asked for by name, as a booth never does) and fake hardware.
import { _electron as electron } from '@playwright/test';

const port = Number(process.env.SMOKE_PORT ?? 18080);
const version = process.env.SMOKE_VERSION;
const app = await electron.launch({
  executablePath: process.env.SMOKE_EXE,
  // Containers have no user namespaces for Chromium's sandbox; the booth keeps it.
  args: ['--no-sandbox', '--ozone-platform=x11'],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    BOOTHDECK_PORT: String(port),
    BOOTHDECK_HOST: '127.0.0.1',
    BOOTHDECK_HARDWARE: 'fake',
    BOOTHDECK_CAPTURE_URL: 'simulator',
    BOOTHDECK_DATA_DIR: process.env.SMOKE_DATA,
  },
  timeout: 60_000,
});
try {
  const window = await app.firstWindow({ timeout: 60_000 });
  await window.waitForURL(/\/admin$/, { timeout: 30_000 });
  await window.waitForSelector('body :is(button, input, h1)', { timeout: 30_000 });
  const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
  if (health.version !== version) throw new Error(`/healthz reports ${health.version}, expected ${version}`);
  console.log(`Smoke test passed: the console opened at ${window.url()}, /healthz reports ${health.version}`);
} finally {
  await app.close();
}
