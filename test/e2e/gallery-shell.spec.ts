import { expect, test } from './fixtures.js';
import { PHONE } from './helpers.js';

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

test('the public gallery shell loads on a phone, in French', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('gallery-title')).toHaveText('Galerie photos');
  await expect(page.getByTestId('gallery-shell')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: 'test-screens/gallery-phone.png' });
});
