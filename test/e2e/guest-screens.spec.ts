import type { Page } from '@playwright/test';
import { expect, isolatedTest as test } from './fixtures.js';
import { PHONE, tiles } from './helpers.js';

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

/** Each button's name under the lightbox, with its horizontal extent. */
const labels = (page: Page) =>
  page.locator('.viewer-toolbar li[data-label]').evaluateAll((els) =>
    els.map((el) => {
      const box = el.getBoundingClientRect();
      const width = parseFloat(getComputedStyle(el, '::after').width);
      return {
        text: el.getAttribute('data-label'),
        left: box.left + box.width / 2 - width / 2,
        right: box.left + box.width / 2 + width / 2,
      };
    }),
  );

test('in English, the phone’s lightbox names its buttons apart, and the QR sheet reads in English', async ({ page, service }) => {
  await page.addInitScript(() => localStorage.setItem('boothdeck.locale', 'en'));
  service.services.events.create({ name: 'Garden party' });
  for (let i = 0; i < 4; i++) await service.simulator!.capture(`p${i}`);
  await expect.poll(() => service.services.photoRepository.count()).toBe(4);
  await page.goto('/');
  await expect(page.getByTestId('gallery-count')).toHaveText('4 photos');
  await page.screenshot({ path: 'test-screens/guest-grid-en.png' });
  await tiles(page).first().tap();
  await expect(page.getByRole('button', { name: 'QR code' })).toBeVisible();
  const shown = await labels(page);
  expect(shown.map((l) => l.text)).toEqual(['QR code', 'Download', 'Print']);
  for (let i = 1; i < shown.length; i++) expect(shown[i]!.left).toBeGreaterThan(shown[i - 1]!.right);
  expect(shown[shown.length - 1]!.right).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: 'test-screens/guest-lightbox-en.png' });
  await page.getByRole('button', { name: 'QR code' }).tap();
  await expect(page.getByTestId('photo-qr-dialog')).toContainText('On another phone');
  await expect(page.getByTestId('photo-qr-image')).toBeVisible();
  await page.screenshot({ path: 'test-screens/guest-photo-qr-en.png' });
});
