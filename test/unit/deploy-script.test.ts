import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic, type TestContext } from 'vitest';
import { FakeBooth, repo, type Outcome } from '../support/fake-booth.js';

const A = 'releases/Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage';
const B = 'releases/Boothdeck-0.1.0-gbbbbbbb-arm64.AppImage';

/** A booth after its first deploy (0.1.0-gaaaaaaa running): the first test's subject, copied by the others. */
let seeded: FakeBooth;
let first: Outcome;
beforeAll(async () => {
  seeded = new FakeBooth();
  first = await seeded.deploy([seeded.build('0.1.0-gaaaaaaa')]);
}, 90_000);
afterAll(() => seeded.dispose());

/** A booth of the test's own, removed when it ends: a copy of the seeded one, or a new board. */
function boothFor({ onTestFinished }: TestContext, from: 'seeded' | 'new' = 'seeded'): FakeBooth {
  const booth = from === 'seeded' ? seeded.clone() : new FakeBooth();
  onTestFinished(() => booth.dispose());
  return booth;
}

const restarts = (booth: FakeBooth): number => booth.calls().filter((c) => c === 'systemctl --user restart boothdeck.service').length;

/** The booth still runs its first release, which was never restarted. */
function expectUntouched(expect: ExpectStatic, booth: FakeBooth): void {
  expect(restarts(booth)).toBe(0);
  expect(booth.link('current')).toBe(A);
  expect(booth.liveVersion()).toBe('0.1.0-gaaaaaaa');
}

// Each case has a booth of its own: they run side by side. A deploy is a few hundred short
// processes: on a busy machine a case with three of them may take longer than vitest's default.
describe.concurrent('scripts/deploy.sh against a fake board', { timeout: 90_000 }, () => {
  it('first deploy: the unit, the settings file, lingering, the tool for rollbacks, and the new version running', ({ expect }) => {
    const booth = seeded;
    expect(first.code, first.out).toBe(0);
    expect(booth.link('current')).toBe(A);
    expect(booth.liveVersion()).toBe('0.1.0-gaaaaaaa');
    expect(statSync(booth.home('boothdeck', A)).mode & 0o111).not.toBe(0);
    expect(readFileSync(booth.home('.config/systemd/user/boothdeck.service'), 'utf8')).toBe(
      readFileSync(path.join(repo, 'deploy/boothdeck.service'), 'utf8'),
    );
    const envFile = booth.home('.config/boothdeck/boothdeck.env');
    expect(readFileSync(envFile, 'utf8')).toContain('BOOTHDECK_CAPTURE_URL=http://127.0.0.1:8000');
    expect(statSync(envFile).mode & 0o077).toBe(0); // the PIN lives there
    expect(existsSync(booth.home('boothdeck/bin/boothdeck-rollback'))).toBe(true);
    expect(booth.calls()).toEqual(
      expect.arrayContaining([
        `loginctl enable-linger ${os.userInfo().username}`,
        'systemctl --user daemon-reload',
        'systemctl --user enable boothdeck.service',
        'systemctl --user restart boothdeck.service',
      ]),
    );
    // Detached from the ssh session: a transient unit of the user's systemd.
    expect(booth.calls().some((c) => c.startsWith('systemd-run --user') && c.includes(' run '))).toBe(true);
    expect(first.out).toContain('Boothdeck 0.1.0-gaaaaaaa is up');
    expect(booth.deployLog()).toMatch(/\[0\.1\.0-gaaaaaaa-[^\]]+\] Trial start: 0\.1\.0-gaaaaaaa answered \/healthz on port 18080: ok/);
    expect(booth.leftovers()).toEqual([]);
  });

  it('update: tried on a spare port with the live settings and a copy of the database, then switched; local unit changes and settings kept', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    writeFileSync(booth.home('.config/boothdeck/boothdeck.env'), 'BOOTHDECK_ADMIN_PIN="2468"\nBOOTHDECK_PORT=8080\n');
    mkdirSync(booth.home('.config/systemd/user/boothdeck.service.d'), { recursive: true });
    writeFileSync(booth.home('.config/systemd/user/boothdeck.service.d/override.conf'), '[Service]\nEnvironment=LANG=fr_FR.UTF-8\n');
    mkdirSync(booth.home('.config/Boothdeck/data'), { recursive: true });
    writeFileSync(booth.home('.config/Boothdeck/data/boothdeck.sqlite'), '');
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')]);
    expect(code, out).toBe(0);
    expect(booth.link('current')).toBe(B);
    expect(booth.link('previous')).toBe(A);
    expect(booth.liveVersion()).toBe('0.1.0-gbbbbbbb');
    expect(readFileSync(booth.home('.config/boothdeck/boothdeck.env'), 'utf8')).toBe('BOOTHDECK_ADMIN_PIN="2468"\nBOOTHDECK_PORT=8080\n');
    expect(readFileSync(booth.home('.config/systemd/user/boothdeck.service.d/override.conf'), 'utf8')).toContain('LANG=fr_FR');
    const trialEnv = readFileSync(booth.home('.trial-env'), 'utf8');
    expect(trialEnv).toContain('BOOTHDECK_ADMIN_PIN=2468\n'); // the live settings, quotes removed as systemd does
    expect(trialEnv).toContain('BOOTHDECK_PORT=18080\n');
    expect(trialEnv).toContain('BOOTHDECK_HARDWARE=fake\n'); // the live instance holds the relay and the ring
    expect(trialEnv).toMatch(/BOOTHDECK_DATA_DIR=.*\/boothdeck\/trial-[^/]+\/data\n/);
    expect(trialEnv).not.toContain('WAYLAND_DISPLAY');
    expect(readFileSync(booth.home('.trial-args'), 'utf8').trim()).toBe('--boothdeck-trial --ozone-platform=headless');
    expect(out).toMatch(/Copied the database/);
    // The copy (PIN hashes) is closed to other users before the release even starts on it.
    const modes = readFileSync(booth.home('.trial-modes'), 'utf8').trim().split('\n');
    expect(modes.map((line) => line.split(' ')[0])).toEqual(['700', '600']);
    expect(modes[1]).toMatch(/\/boothdeck\.sqlite$/);
    // The unit had not changed: systemd was not asked to read it again.
    expect(booth.calls()).not.toContain('systemctl --user daemon-reload');
    expect(booth.leftovers()).toEqual([]);
  });

  it('a release that crashes at start is stopped at its trial: the running one is never restarted', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb', 'crash')]);
    expect(code).toBe(1);
    expect(out).toContain('Trial start: 0.1.0-gbbbbbbb exited at start');
    expect(out).toContain('trial output: SqliteError: database disk image is malformed');
    expect(out).toContain('never stopped and keeps serving');
    expectUntouched(expect, booth);
  });

  it('a release that passes its trial but never answers under the unit is rolled back', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb', 'live-crash')], { BOOTH_HEALTH_ATTEMPTS: '10' });
    expect(code).toBe(1);
    expect(out).toContain('Crash loop: the unit died at start');
    expect(out).toContain(`ROLLED BACK to ${A}, which answers /healthz again`);
    expect(booth.link('current')).toBe(A);
    expect(booth.liveVersion()).toBe('0.1.0-gaaaaaaa');
    expect(restarts(booth)).toBe(2);
  });

  it('a 200 from another version is not success: only the new version on /healthz counts', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb', { reports: '0.1.0-gaaaaaaa' })], {
      BOOTH_HEALTH_ATTEMPTS: '10',
    });
    expect(code).toBe(1);
    expect(out).toContain('did not answer /healthz on port 18080');
    expect(booth.link('current')).toBe(A);
  });

  it('refuses to restart during an event with a photo in the last 30 minutes, before any upload', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    booth.event(10 * 60);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')], { GITHUB_ACTIONS: 'true' });
    expect(code).toBe(75);
    expect(out).toContain('REFUSED: an event is under way on the booth (last photo 10 min ago');
    expect(out).toContain('installs the release by itself once the event is over');
    expect(out).toContain('::notice title=Deploy deferred::');
    expect(booth.calls().some((c) => c.includes(' receive ') || c.includes('restart'))).toBe(false);
    expect(booth.deployLog()).toContain('REFUSED');
    expect(booth.leftovers()).toEqual([]);
  });

  it('an event that starts during the upload is caught by the second guard, right before the restart', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')], { FAKE_EVENT_DURING_UPLOAD: '1' });
    expect(code, out).toBe(75);
    expect(out).toContain('Event guard: no event under way (no photo in the last 30 min)'); // the first guard, before the upload
    expect(out).toMatch(/Trial start: 0\.1\.0-gbbbbbbb answered[\s\S]*REFUSED: an event is under way on the booth \(last photo 0 min ago/);
    expectUntouched(expect, booth);
  });

  it('restarts during an event when forced, and logs that it was forced', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    booth.event(5 * 60);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')], { BOOTH_FORCE: '1' });
    expect(code, out).toBe(0);
    expect(out).toContain('FORCED: an event is under way on the booth (last photo 5 min ago');
    expect(booth.link('current')).toBe(B);
  });

  it('a full disk refuses the upload and leaves nothing behind', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')], { FAKE_FREE_KB: '20000', GITHUB_ACTIONS: 'true' });
    expect(code).toBe(74);
    expect(out).toMatch(/REFUSED: not enough free space on the booth: 19 MB free in .*, 100 MB needed/);
    expect(out).toContain('::error title=Deploy refused::Not enough free space');
    expect(booth.leftovers()).toEqual([]);
    expect(existsSync(booth.home('boothdeck', B))).toBe(false);
    expectUntouched(expect, booth);
  });

  it('a disk that fills up during the upload keeps no partial file', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    const big = booth.build('0.1.0-gbbbbbbb');
    writeFileSync(big, readFileSync(big, 'utf8') + '#'.repeat(64 * 1024));
    // A file size limit on the booth's side stands for the disk filling up: the write fails halfway.
    const { code, out } = await booth.deploy([big], { FAKE_DISK_FULL_KB: '16' });
    expect(code).not.toBe(0);
    expect(out).toMatch(/FAILED: the upload (could not be written|stopped after)/);
    expect(booth.leftovers()).toEqual([]);
    expect(booth.liveVersion()).toBe('0.1.0-gaaaaaaa');
  });

  it('boothdeck-rollback puts the previous release back after trying it, and proves it answers', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    expect((await booth.deploy([booth.build('0.1.0-gbbbbbbb')])).code).toBe(0);
    const { code, out } = await booth.onBooth('boothdeck-rollback');
    expect(code, out).toBe(0);
    expect(out).toContain(`Rolling back from ${B} to ${A}`);
    expect(out).toContain('Trial start: 0.1.0-gaaaaaaa answered');
    expect(booth.link('current')).toBe(A);
    expect(booth.link('previous')).toBe(B);
    expect(booth.liveVersion()).toBe('0.1.0-gaaaaaaa');
    // From the pipeline (or a laptop) it is the same command.
    const again = await booth.deploy(['--rollback']);
    expect(again.code, again.out).toBe(0);
    expect(booth.liveVersion()).toBe('0.1.0-gbbbbbbb');
  });

  it('from the runner on the booth: no ssh, and with a user of its own only the one sudoers command, the request passed as data', async (context) => {
    const { expect } = context;
    const booth = boothFor(context, 'new');
    const here = await booth.deploy([booth.build('0.1.0-gaaaaaaa')], { BOOTH_HOST: '', BOOTH_USER: '', HOME: booth.board });
    expect(here.code, here.out).toBe(0);
    expect(here.out).toContain(`Deploying Boothdeck 0.1.0-gaaaaaaa to ${os.userInfo().username} on this machine`);
    const inbox = path.join(booth.root, 'inbox');
    mkdirSync(inbox);
    writeFileSync(booth.home('.config/boothdeck/fleet.env'), `BOOTHDECK_INBOX=${inbox}\nBOOTHDECK_BOOTH_NAME=salle-a\n`);
    const tool = booth.home('boothdeck/bin/boothdeck-deploy');
    const runner = { BOOTH_HOST: '', BOOTH_USER: 'booth-user-x', BOOTH_INBOX: inbox, BOOTH_TOOL: tool };
    const other = await booth.deploy([booth.build('0.1.0-gbbbbbbb')], runner);
    expect(other.code, other.out).toBe(0);
    expect(booth.calls().filter((c) => c.startsWith('ssh'))).toEqual([]);
    const sudo = booth.calls().filter((c) => c.startsWith('sudo -n -u'));
    expect(sudo.length).toBeGreaterThan(0);
    expect(new Set(sudo)).toEqual(new Set([`sudo -n -u booth-user-x ${tool} inbox`]));
    expect(booth.liveVersion()).toBe('0.1.0-gbbbbbbb');
    expect(other.out).toMatch(/^FLEET booth=salle-a version=0\.1\.0-gbbbbbbb released=- outcome=installed event=idle$/m);
    // A request is data: a word that is not a token is refused before anything runs.
    writeFileSync(path.join(inbox, 'request'), 'action=rollback\nid=x;touch${IFS}pwned\nforce=0\n');
    const hostile = await booth.onBooth('boothdeck-deploy inbox');
    expect(hostile.code).toBe(64);
    expect(hostile.out).toContain('Refusing a malformed request');
    expect(existsSync(booth.home('pwned'))).toBe(false);
    expect(booth.liveVersion()).toBe('0.1.0-gbbbbbbb');
  });

  it('without systemd-run the install is detached with setsid, and still ends on the new version', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')], { FAKE_NO_SYSTEMD_RUN: '1' });
    expect(code, out).toBe(0);
    expect(out).toMatch(/The install goes on by itself \(process \d+\)/);
    expect(booth.liveVersion()).toBe('0.1.0-gbbbbbbb');
  });

  it('without ffmpeg and FUSE 2 and no sudo: says so, and runs the AppImage extracted', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    booth.installed('ffmpeg', false);
    booth.installed('libfuse2', false);
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')]);
    expect(code, out).toBe(0);
    expect(out).toContain('WARNING: ffmpeg libfuse2 not installed');
    expect(out).toContain('WARNING: ffmpeg missing: video tiles show a placeholder');
    expect(readFileSync(booth.home('.config/boothdeck/deploy.env'), 'utf8')).toContain('APPIMAGE_EXTRACT_AND_RUN=1');
    expect(readFileSync(booth.home('.trial-env'), 'utf8')).toContain('APPIMAGE_EXTRACT_AND_RUN=1\n');
  });

  it('installs ffmpeg and FUSE 2 with passwordless sudo, then lets the AppImage mount itself again', async (context) => {
    const { expect } = context;
    const booth = boothFor(context);
    booth.installed('ffmpeg', false);
    booth.installed('libfuse2', false);
    // As a deploy before FUSE 2 was there left it.
    writeFileSync(booth.home('.config/boothdeck/deploy.env'), 'APPIMAGE_EXTRACT_AND_RUN=1\n');
    const { code, out } = await booth.deploy([booth.build('0.1.0-gbbbbbbb')], { FAKE_SUDO: '1' });
    expect(code, out).toBe(0);
    expect(booth.calls()).toContain(
      'sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg libfuse2',
    );
    expect(out).toContain('ffmpeg: present');
    expect(out).toContain('FUSE 2: present');
    expect(readFileSync(booth.home('.config/boothdeck/deploy.env'), 'utf8')).not.toContain('APPIMAGE_EXTRACT_AND_RUN');
    expect(readFileSync(booth.home('.trial-env'), 'utf8')).not.toContain('APPIMAGE_EXTRACT_AND_RUN');
  });

  it('refuses a file that is not a Boothdeck arm64 AppImage before touching the booth', async (context) => {
    const { expect } = context;
    const booth = boothFor(context, 'new');
    const other = path.join(booth.artifacts, 'something.AppImage');
    writeFileSync(other, 'x');
    expect((await booth.deploy([other])).code).toBe(64);
    expect(booth.calls()).toEqual([]);
  });
});
