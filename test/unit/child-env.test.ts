import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnvironment } from '../../server/system/child-env.js';
import { createExecSystem } from '../../server/system/system.exec.js';
import { ALLOWED_COMMANDS } from '../../server/system/system.port.js';

const SECRETS = {
  BOOTHDECK_ADMIN_PIN: '482913',
  BOOTHDECK_CAPTURE_PASSWORD: 'capture-secret-77',
  RCLONE_CONFIG_EVIL_TYPE: 'webdav',
  RCLONE_CONFIG_EVIL_BEARER_TOKEN_COMMAND: 'touch /tmp/pwned',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-99',
};

/**
 * Every program Boothdeck may run is replaced, on PATH, by a script that writes down the
 * environment it was given: what the real lp, rclone or ffmpeg would have seen.
 */
describe("children's environment", () => {
  let bin: string;
  const saved = { ...process.env };

  beforeAll(() => {
    bin = mkdtempSync(path.join(tmpdir(), 'child-env-'));
    for (const command of ALLOWED_COMMANDS) {
      const script = path.join(bin, command);
      writeFileSync(script, `#!/bin/sh\nenv > "${path.join(bin, `${command}.env`)}"\n`);
      chmodSync(script, 0o755);
    }
    process.env.PATH = `${bin}:/usr/bin:/bin`;
    Object.assign(process.env, SECRETS, { CUPS_SERVER: '/run/cups/cups.sock', XDG_RUNTIME_DIR: '/run/user/1000' });
  });

  afterAll(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    rmSync(bin, { recursive: true, force: true });
  });

  it.each(ALLOWED_COMMANDS.map((c) => [c]))('%s gets no Boothdeck secret, rclone remote or cloud key', async (command) => {
    const result = await createExecSystem().run(command, [], { env: { LC_ALL: 'C' } });
    expect(result.code).toBe(0);
    const seen = readFileSync(path.join(bin, `${command}.env`), 'utf8');
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(seen, name).not.toContain(name);
      expect(seen, name).not.toContain(value);
    }
    // What the program needs to run at all is still there.
    expect(seen).toContain(`PATH=${bin}:`);
    expect(seen).toContain('LC_ALL=C');
  });

  it('gives CUPS its server and systemctl its session, and neither to the others', () => {
    const parent = { PATH: '/usr/bin', CUPS_SERVER: '/run/cups/cups.sock', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' };
    expect(childEnvironment('lp', parent).CUPS_SERVER).toBe('/run/cups/cups.sock');
    expect(childEnvironment('systemctl', parent).DBUS_SESSION_BUS_ADDRESS).toBe('unix:path=/run/user/1000/bus');
    expect(childEnvironment('ffmpeg', parent)).toEqual({ PATH: '/usr/bin' });
    expect(childEnvironment('rclone', parent)).toEqual({ PATH: '/usr/bin' });
  });

  it("refuses a caller's attempt to hand a child Boothdeck's or rclone's own variables", () => {
    expect(() => childEnvironment('rclone', {}, { RCLONE_CONFIG: '/home/pi/other.conf' })).toThrow(/RCLONE_CONFIG/);
    expect(() => childEnvironment('lp', {}, { BOOTHDECK_ADMIN_PIN: '1234' })).toThrow(/BOOTHDECK_ADMIN_PIN/);
  });
});
