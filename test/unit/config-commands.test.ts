import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

const load = (env: Record<string, string>) => loadConfig(env, { dataDir: '/tmp/boothdeck-config-commands' });

describe('configuration that ends up in a command line', () => {
  it('refuses a capture unit that systemctl would read as an option', () => {
    for (const unit of ['-Hroot@host', '--user', '-', 'photobooth app', 'a;b', 'x'.repeat(300)]) {
      expect(() => load({ BOOTHDECK_CAPTURE_UNIT: unit }), unit).toThrow(ConfigError);
    }
    for (const unit of ['photobooth-app', 'photobooth-app.service', 'photobooth@1.service', 'capture_app']) {
      expect(load({ BOOTHDECK_CAPTURE_UNIT: unit }).captureUnit).toBe(unit);
    }
  });

  it('allows only screen-refresh tools as the screen refresh', () => {
    for (const argv of [['reboot'], ['systemctl', 'poweroff'], ['lp', '/etc/shadow'], ['cancel', '-a']]) {
      expect(() => load({ BOOTHDECK_SCREEN_REFRESH: JSON.stringify(argv) }), argv.join(' ')).toThrow(/screen-refresh tool/);
    }
    expect(load({ BOOTHDECK_SCREEN_REFRESH: '["wtype","-k","F5"]' }).screenRefresh).toEqual(['wtype', '-k', 'F5']);
    expect(load({ BOOTHDECK_SCREEN_REFRESH: 'off' }).screenRefresh).toBeNull();
  });

  it('keeps background work at the lowest priority unless told exactly "normal", and refuses anything else at start', () => {
    expect(load({}).backgroundPriority).toBe('lowest');
    expect(load({ BOOTHDECK_BACKGROUND_PRIORITY: '' }).backgroundPriority).toBe('lowest');
    expect(load({ BOOTHDECK_BACKGROUND_PRIORITY: 'normal' }).backgroundPriority).toBe('normal');
    for (const value of ['Normal', 'low', 'idle', 'normal ', '0']) {
      expect(() => load({ BOOTHDECK_BACKGROUND_PRIORITY: value }), value).toThrow(/BOOTHDECK_BACKGROUND_PRIORITY=.*"lowest".*"normal"/);
    }
  });
});
