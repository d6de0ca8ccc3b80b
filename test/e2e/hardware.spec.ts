import type { FakeHardware } from '../../native/hardware.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('the hardware page charts the light live, its test button reaches the relay, and a setting takes effect', async ({
  page,
  service,
}) => {
  const hardware = service.services.ports.hardware as FakeHardware;
  hardware.lux.lux = 40;
  await unlockConsole(page, '/admin/hardware');
  await expect(page.getByTestId('hw-lux-now')).toContainText('40 lux');
  await expect(page.getByTestId('hw-decision')).toContainText('Le flash se déclenchera');
  await expect(page.getByTestId('hw-device-led')).toContainText('Simulé');

  // The chart moves: its canvas changes as new samples arrive and the light changes.
  const canvas = page.getByTestId('uplot-chart').locator('canvas');
  await expect(canvas).toBeVisible();
  const before = await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
  hardware.lux.lux = 400;
  await expect(page.getByTestId('hw-lux-now')).toContainText('400 lux');
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL())).not.toBe(before);
  await expect(page.getByTestId('hw-decision')).toContainText('ne se déclenchera pas', { timeout: 15_000 });
  // The relay's bounds are on the page, with what is left of the budget.
  await expect(page.getByTestId('hw-relay-limits')).toContainText(
    'Limites : 6 s par photo, 30 s par 60 s (reste 30 s) Vidéo : 20 s au plus.',
  );
  await page.screenshot({ path: 'test-screens/hardware.png', fullPage: true });
  await page.getByTestId('hw-relay-limits').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/hardware-relay-limits.png' });

  // A test button reaches the (fake) relay.
  const switchesBefore = hardware.relay.onTimes().length;
  await page.getByTestId('hw-test-relay').click();
  await expect.poll(() => hardware.relay.onTimes().length).toBe(switchesBefore + 1);
  await expect(page.getByTestId('hw-relay-state')).toHaveAttribute('data-on', 'true');
  await expect.poll(() => hardware.relay.isOn(), { timeout: 3000 }).toBe(false);

  // Settings apply at once: a colour preset reaches the ring; a new GPIO reopens the relay.
  await page.getByTestId('hw-preset-2a6aff').click();
  await expect.poll(() => hardware.led.current.pixels[0]).toEqual({ r: 0x2a, g: 0x6a, b: 0xff });
  await page.getByTestId('hw-relay-gpio').fill('27');
  await page.getByTestId('hw-relay-gpio').press('Tab');
  await expect.poll(() => hardware.relay.options.gpio).toBe(27);
  await page.getByTestId('hw-led-brightness').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/hardware-settings.png' });
});
