import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, unlockConsole } from './helpers.js';
import type { TestService } from '../support/service.js';

/** A stock booth's collage (two parts shown in the capture app's gallery), a photo and an animated WebP. */
async function seed(service: TestService): Promise<string> {
  service.services.events.create({ name: 'Mariage' });
  await service.simulator!.capture('Photo', new Date(), 'image');
  await service.simulator!.capture('Animation', new Date(), 'animation');
  const collage = await service.simulator!.capture('Collage', new Date(), 'collage');
  await expect.poll(() => service.services.photoRepository.find(collage.id)?.processed).toBe(1);
  await expect.poll(() => service.services.photoRepository.count()).toBe(5);
  return collage.id;
}

test.describe('at the booth', () => {
  test.use({ viewport: BOOTH_SCREEN });
  test('the console lists a collage’s shots right after it, and offers the guests’ choice', async ({ page, service }) => {
    await seed(service);
    await unlockConsole(page, '/admin/gallery');
    await expect(page.getByTestId('collage-parts-badge')).toHaveText('2 prises');
    await expect(page.getByTestId('collage-part-badge')).toHaveText(['Prise 1 sur 2', 'Prise 2 sur 2']);
    await expect(page.getByTestId('animation-badge')).toHaveCount(1);
    await expect(page.getByTestId('collage-parts-hidden')).toHaveAttribute('aria-checked', 'true');
    await page.screenshot({ path: 'test-screens/collage-parts-admin.png' });
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });
  test('guests see one collage, not its shots', async ({ page, service }) => {
    await seed(service);
    await page.goto('/');
    await expect(page.getByTestId('photo-tile')).toHaveCount(3);
    await expect(page.getByTestId('animation-badge')).toHaveCount(1);
    await page.screenshot({ path: 'test-screens/collage-parts-public.png' });
  });
});
