import { test as base, type Page } from '@playwright/test';
import type { CaptureConfig } from '../../server/capture/capture.types.js';
import { startTestService, type TestService } from '../support/service.js';
import { expect } from './fixtures.js';
import { pageErrors } from './finger.js';
import { aboveKeyboard, checkScreen, closeKeyboard, fieldsAboveKeyboard, key, keyboard, SCREENS } from './screens.walk.js';

/**
 * The states that come and go, walked by finger at the four screens as the pages are in
 * screens.spec.ts: a job the capture app failed (the banner, its reasons, the Actions page's
 * marks), a restart waiting for a guest's photo, the owner's notices on coming in (wrong PINs
 * since the last visit, an owner PIN too short for a rental), a gallery password typed on the
 * keyboard with its strength said and a passphrase offered, and the video light's bound typed on
 * the keypad. Each is checked as a page is: sizes, reach, 44 px targets, no word cut, words.
 */
const OWNER_PIN = '4321';
const EVENT_PIN = '1357';

type Json = Record<string, unknown>;
const groups = (config: CaptureConfig): Record<string, Json[]> => config.actions as Record<string, Json[]>;

/** One service for the file: what it is put through (failed jobs, a short owner PIN) stays here. */
const test = base.extend<object, { service: TestService }>({
  service: [
    async ({}, use) => {
      const service = await startTestService({ BOOTHDECK_ADMIN_PIN: OWNER_PIN, BOOTHDECK_SCREEN_REFRESH: '["wtype","-k","F5"]' });
      await use(service);
      await service.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ service }, use) => {
    await use(service.localUrl);
  },
});

async function tapPin(page: Page, pin: string): Promise<void> {
  for (const digit of pin) await page.getByTestId(`pin-key-${digit}`).tap();
  await page.getByTestId('pin-submit').tap();
}

/** A collage that waits at the booth for the guest to approve each photo, longer than any walk. */
async function collageAwaitsApproval(service: TestService): Promise<void> {
  await service.services.ports.capture.updateConfig((config) => {
    const collage = groups(config).collage?.[0];
    if (collage)
      collage.jobcontrol = { ...(collage.jobcontrol as Json), ask_approval_each_capture: true, approve_autoconfirm_timeout: 600 };
    return config;
  });
}

test.describe('the states that come and go, on the booth’s screens', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(120_000);

  test.beforeAll(async ({ service }) => {
    service.services.events.create({ name: 'Mariage de Léa' });
    for (let i = 0; i < 2; i++) await service.simulator!.capture(`p${i}`);
    await expect.poll(() => service.services.photoRepository.count()).toBe(2);
    // A booth set up with a 4-digit owner PIN, then rented out with an event PIN.
    await service.services.auth.setEventPin('', EVENT_PIN);
    // An animation whose frames are not listed: the capture app fails every run of it.
    await service.services.ports.capture.updateConfig((config) => {
      const animation = groups(config).animation?.[0];
      if (animation) animation.processing = { ...(animation.processing as Json), merge_definition: [] };
      return config;
    });
    await collageAwaitsApproval(service);
  });

  /** Two more runs of the failing animation, each told once the capture app has failed it. */
  async function animationFailsTwice(service: TestService): Promise<void> {
    for (let run = 0; run < 2; run++) {
      const before = service.services.captureJobs.status().failures[0]?.id ?? 0;
      await expect.poll(() => service.services.captureActivity.phase, { timeout: 15_000 }).toBeNull();
      await service.services.ports.capture.triggerAction('animation', 0);
      await expect.poll(() => service.services.captureJobs.status().failures[0]?.id ?? 0, { timeout: 20_000 }).toBeGreaterThan(before);
    }
  }

  for (const screen of SCREENS) {
    test(`failed jobs, a restart waiting, the owner’s notices, passwords and the video light at ${screen.name}`, async ({
      browser,
      baseURL,
      service,
    }) => {
      const context = await browser.newContext({ baseURL, viewport: screen, hasTouch: true, locale: 'fr-FR' });
      const page = await context.newPage();
      const errors = pageErrors(page);
      await page.addInitScript(() => localStorage.setItem('boothdeck.keyboard', 'on'));
      const shot = (name: string) => page.screenshot({ path: `test-screens/states-${screen.name}-${name}.png` });

      await animationFailsTwice(service);
      // The renter's evening: wrong PINs from phones on the Wi-Fi, told to the owner when they come in.
      for (let i = 0; i < 3; i++)
        await service.services.auth.signIn(String(970_000 + i), { address: `192.168.1.${40 + i}`, isLocal: false }).catch(() => undefined);
      await page.goto('/admin/dashboard');
      await tapPin(page, OWNER_PIN);
      await expect(page.getByTestId('dashboard-page')).toBeVisible();
      await expect(page.getByTestId('owner-failures')).toContainText('3 codes faux');
      await expect(page.getByTestId('owner-pin-short')).toBeVisible();
      await expect(page.getByTestId('job-failure')).toContainText(/a échoué \d+\sfois de suite/);
      await page.waitForLoadState('networkidle');
      await checkScreen(page, `${screen.name} dashboard with the notices`, screen);
      await page.locator('main').evaluate((el) => el.scrollTo(0, 0));
      await shot('dashboard-notices');
      // The banners leave the page its room: a field tapped still comes up above the keyboard.
      await fieldsAboveKeyboard(page, `${screen.name} dashboard with the notices`);
      // The capture app's own words, behind Détails.
      await page.getByTestId('job-failure').getByTestId('details-toggle').tap();
      await expect(page.getByTestId('details-text')).toContainText('merge_definition');
      await checkScreen(page, `${screen.name} the failure's reasons`, screen);
      await shot('job-failure-details');
      await page.getByTestId('owner-failures-close').tap();
      await expect(page.getByTestId('owner-failures')).toHaveCount(0);

      // The flag's button opens the owner PIN's change: a keypad over the page.
      await page.getByTestId('owner-pin-short-change').tap();
      const pinDialog = page.getByTestId('keys-pin-dialog');
      await expect(pinDialog).toBeVisible();
      await checkScreen(page, `${screen.name} the owner PIN's change`, screen);
      await shot('owner-pin-change');
      await page.getByTestId('keys-pin-dialog-cancel').tap();
      await expect(pinDialog).toHaveCount(0);
      // The event PIN set again, typed twice: the client's card, to print.
      await page.getByTestId('keys-event-set').tap();
      for (let twice = 0; twice < 2; twice++) {
        await expect(pinDialog).toBeVisible();
        for (const digit of EVENT_PIN) await pinDialog.getByTestId(`pin-key-${digit}`).tap();
        await pinDialog.getByTestId('pin-submit').tap();
      }
      await expect(page.getByTestId('client-card-pin')).toHaveText(EVENT_PIN);
      await checkScreen(page, `${screen.name} the client's card`, screen);
      await shot('client-card');
      await page.getByTestId('event-pin-card-close').tap();
      await expect(page.getByTestId('event-pin-card')).toHaveCount(0);

      // The Actions page marks the failing action, its words whole beside the kind and countdown.
      await page.goto('/admin/actions');
      const failing = page.locator('[data-name="Animation"]').getByTestId('action-failing');
      await expect(failing).toHaveText(/^\d+\séchecs de suite$/);
      await page.waitForLoadState('networkidle');
      await checkScreen(page, `${screen.name} actions with a failing one`, screen);
      await failing.scrollIntoViewIfNeeded();
      await shot('actions-failing');

      // A restart asked while a guest's collage waits for approval: the banner waits, and says so.
      await service.services.ports.capture.triggerAction('collage', 0);
      await expect.poll(() => service.services.captureActivity.phase, { timeout: 15_000 }).toBe('approval');
      await page.goto('/admin');
      expect((await page.request.post('/api/admin/system/capture-restart')).ok()).toBe(true);
      const banner = page.getByTestId('restart-banner');
      await expect(banner).toHaveAttribute('data-state', 'waiting', { timeout: 10_000 });
      await checkScreen(page, `${screen.name} a restart waiting`, screen);
      await shot('restart-waiting');
      await page.getByTestId('restart-now').tap();
      await expect(banner).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await page.getByTestId('job-failure-seen').tap();
      await expect(page.getByTestId('job-failure')).toHaveCount(0);

      // A gallery password typed on the keyboard: its strength said as it is typed, a passphrase offered.
      await page.goto('/admin/events');
      await page.waitForLoadState('networkidle');
      const row = page.getByTestId('publish-mariage-de-lea');
      const lock = row.getByTestId('publish-lock-input');
      await lock.tap();
      await expect(keyboard(page)).toBeVisible();
      for (const letter of 'lea') await key(page, letter).tap();
      await expect(lock).toHaveValue('lea');
      await expect(row.getByTestId('password-strength')).toContainText('12 caractères au moins');
      await expect.poll(() => aboveKeyboard(page, lock), { message: `${screen.name}: the password above the keyboard` }).toBe(true);
      // Its verdict is read while typing, not under the keyboard.
      await expect
        .poll(() => aboveKeyboard(page, row.getByTestId('password-strength')), {
          message: `${screen.name}: the verdict above the keyboard`,
        })
        .toBe(true);
      await shot('gallery-password-keyboard');
      await closeKeyboard(page);
      await row.getByTestId('passphrase-offer').tap();
      await expect(row.getByTestId('passphrase-shown')).toBeVisible();
      await expect(row.getByTestId('password-strength')).toContainText('Assez solide');
      await checkScreen(page, `${screen.name} a passphrase offered`, screen);
      await row.getByTestId('passphrase-shown').scrollIntoViewIfNeeded();
      await shot('passphrase');

      // The video light and its bound, typed on the keypad.
      await page.goto('/admin/hardware');
      await page.waitForLoadState('networkidle');
      const video = page.getByTestId('hw-flash-video');
      if (!(await video.isChecked())) await video.tap();
      const bound = page.getByTestId('hw-flash-video-max');
      await bound.tap();
      await expect(keyboard(page)).toBeVisible();
      await key(page, '1').tap();
      await key(page, '2').tap();
      await expect(bound).toHaveValue('12');
      await expect.poll(() => aboveKeyboard(page, bound), { message: `${screen.name}: the video bound above the keypad` }).toBe(true);
      await closeKeyboard(page);
      await expect.poll(() => service.services.settings.stored().hardware.flash.video_max_seconds).toBe(12);
      await checkScreen(page, `${screen.name} the video light on`, screen);
      await bound.scrollIntoViewIfNeeded();
      await shot('video-light');
      await video.tap();
      await expect(page.getByTestId('hw-flash-video-off')).toBeVisible();

      expect(errors, `${screen.name}: no error on any page`).toEqual([]);
      await context.close();
    });
  }
});
