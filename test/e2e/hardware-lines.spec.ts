import type { FakeHardware } from '../../native/hardware.js';
import type { DashboardStatus } from '../../server/contract/dashboard.contract.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { unlockConsole } from './helpers.js';

/** The booth's own screen (the official Touch Display). */
test.use({ viewport: { width: 800, height: 480 } });

test('the flash serves videos within a bound the operator sets, or not at all; the sensor address is a choice', async ({
  page,
  service,
}) => {
  const hardware = service.services.ports.hardware as FakeHardware;
  await unlockConsole(page, '/admin/hardware');
  // The pre-flash's hint names the capture app's camera offset, which the pre-flash must cover.
  const preflash = page.getByTestId('hw-flash-preflash');
  await preflash.scrollIntoViewIfNeeded();
  await expect(page.getByText('décalage caméra de l’application de capture')).toBeVisible();
  await page.screenshot({ path: 'test-screens/hardware-preflash-hint.png' });
  const videoMax = page.getByTestId('hw-flash-video-max');
  await videoMax.scrollIntoViewIfNeeded();
  await expect(videoMax).toHaveValue('20');
  await videoMax.fill('12');
  await videoMax.press('Tab');
  await expect.poll(() => service.services.settings.stored().hardware.flash.video_max_seconds).toBe(12);
  await expect(page.getByTestId('hw-relay-limits')).toContainText('Vidéo : 12 s au plus.');
  await expect(page.getByTestId('hw-flash-video').locator('..')).toContainText('du pré-flash à la fin de l’enregistrement');
  await page.screenshot({ path: 'test-screens/hardware-video-light.png' });

  await page.getByTestId('hw-flash-video').uncheck();
  await expect(page.getByTestId('hw-flash-video-off')).toHaveText('Les vidéos sont filmées sans le flash.');
  await expect.poll(() => service.services.settings.stored().hardware.flash.video_light).toBe(false);
  await expect(page.getByTestId('hw-relay-limits')).toContainText('Vidéo : sans flash.');

  await page.getByTestId('hw-lux-address-92').click();
  await expect.poll(() => hardware.opens.filter((o) => o.device === 'lux').at(-1)?.options).toEqual({ bus: 1, address: 0x5c });
  await page.getByTestId('hw-lux-address-92').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/hardware-lux-address.png' });
});

test("the dashboard names the relay's GPIO interface and warns when a Pi 4's core clock is not fixed", async ({ page }) => {
  // What a Pi 4 without the sysfs export and without core_freq in config.txt reports (the service here runs fake hardware).
  await page.route('**/api/admin/dashboard/status', async (route) => {
    const response = await route.fetch();
    const status = (await response.json()) as DashboardStatus;
    status.led_driver = {
      driver: 'spi',
      gpio: 10,
      passed: [{ driver: 'ws281x', reason: 'spi-pin' }],
      core_clock: { fixed: false, config: '/boot/firmware/config.txt', mhz: null },
    };
    status.gpio_driver = { driver: 'gpio-cdev', problem: null };
    await route.fulfill({ response, json: status });
  });
  await unlockConsole(page, '/admin/dashboard');
  const clock = page.getByTestId('dash-core-clock');
  await expect(clock).toContainText('core_freq=500 et core_freq_min=500');
  await expect(page.getByTestId('dash-gpio-driver')).toHaveText(
    'Le relais est piloté par l’interface caractère du noyau (/dev/gpiochip*), l’export sysfs étant absent.',
  );
  await clock.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/dashboard-hardware-lines.png' });
});
