import { CHROMIUM_FLAGS } from '../../playwright.config.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { PHONE } from './helpers.js';

/**
 * A guest's phone reaches the booth by a name on its Wi-Fi over plain HTTP, not by localhost:
 * the page is not a secure context and the browser offers no Web Share API there.
 */
test.use({
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  launchOptions: {
    executablePath: process.env.BOOTHDECK_CHROMIUM ?? '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP booth.lan 127.0.0.1'],
  },
});

test('on the booth’s plain-HTTP page, Share gives way to a QR code, even where the browser has the API', async ({ page, service }) => {
  // A browser that would share on a secure page: the page must not offer it here.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: () => Promise.resolve(), configurable: true });
  });
  service.services.events.create({ name: 'Soirée' });
  const item = await service.simulator!.capture('p');
  await expect.poll(() => service.services.photoRepository.count()).toBe(1);
  const address = service.localUrl.replace('127.0.0.1', 'booth.lan');
  await page.goto(`${address}/`);
  expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
  await page.getByTestId('photo-tile').first().tap();
  await expect(page.getByRole('button', { name: 'Code QR' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Partager' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Code QR' }).tap();
  await expect(page.getByTestId('photo-qr-address')).toHaveText(`${address}/api/gallery/photos/${item.id}/download`);
  await expect(page.getByTestId('photo-qr-image')).toBeVisible();
});
