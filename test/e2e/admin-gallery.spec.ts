import type { Page } from '@playwright/test';
import type { MediaItem } from '../../server/capture/capture.types.js';
import { localDay } from '../../common/dates.js';
import type { TestService } from '../support/service.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, pickDay, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

async function seed(service: TestService): Promise<{ first: MediaItem[]; second: MediaItem[] }> {
  service.services.events.create({ name: 'Première' });
  const first = [await service.simulator!.capture('p1'), await service.simulator!.capture('p2')];
  await expect.poll(() => service.services.photoRepository.count()).toBe(2);
  service.services.events.create({ name: 'Seconde' });
  const second = [await service.simulator!.capture('s1'), await service.simulator!.capture('s2'), await service.simulator!.capture('s3')];
  await expect.poll(() => service.services.photoRepository.count()).toBe(5);
  return { first, second };
}

const tiles = (page: Page) => page.getByTestId('photo-grid').getByTestId('photo-tile');
/** The photo the lightbox shows, once its image has loaded (before that, a swipe is ignored). */
const shownId = (page: Page): Promise<string | null> =>
  page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('.viewer-canvas img');
    if (!img || !img.complete || img.naturalWidth === 0) return null;
    return /photos\/([0-9a-f-]{36})\/preview/.exec(img.getAttribute('src') ?? '')?.[1] ?? null;
  });

test('filters by event and by printed status, with the badge on printed photos', async ({ page, service }) => {
  const { first, second } = await seed(service);
  service.services.photoRepository.setPrinted(second[1]!.id, 2);
  await unlockConsole(page, '/admin/gallery');
  await expect(tiles(page)).toHaveCount(5);
  await expect(page.locator(`[data-photo-id="${second[1]!.id}"]`).getByTestId('print-badge')).toHaveText('×2');
  await page.screenshot({ path: 'test-screens/admin-gallery.png' });

  await page.getByTestId('filter-event').selectOption('premiere');
  await expect(tiles(page)).toHaveCount(2);
  expect(await tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-photo-id')))).toEqual([first[1]!.id, first[0]!.id]);

  await page.getByTestId('filter-event').selectOption('');
  await page.getByTestId('filter-status').selectOption('printed');
  await expect(tiles(page)).toHaveCount(1);
  await page.getByTestId('filter-status').selectOption('not_printed');
  await expect(tiles(page)).toHaveCount(4);

  const day = localDay(new Date());
  await page.getByTestId('filter-clear').click();
  // Up to yesterday: nothing (every photo is from today); the field reads the day in French.
  const yesterday = localDay(new Date(Date.now() - 86_400_000));
  await pickDay(page, 'filter-to', yesterday);
  await expect(page.getByTestId('gallery-empty')).toBeVisible();
  await expect(page.getByTestId('filter-to')).toHaveAttribute('data-value', yesterday);
  await expect(page.getByTestId('filter-to')).not.toContainText('/');
  await pickDay(page, 'filter-to', day);
  await pickDay(page, 'filter-from', day);
  await expect(tiles(page)).toHaveCount(5);
});

test('the lightbox navigates with the keyboard and its arrows, shows info, deletes', async ({ page, service }) => {
  const { first, second } = await seed(service);
  const newestFirst = [...second]
    .reverse()
    .concat([...first].reverse())
    .map((i) => i.id);
  await unlockConsole(page, '/admin/gallery');
  await tiles(page).nth(1).click();
  await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => shownId(page)).toBe(newestFirst[2]);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => shownId(page)).toBe(newestFirst[0]);
  await page.locator('.viewer-toolbar .viewer-next').click();
  await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
  await page.screenshot({ path: 'test-screens/admin-lightbox.png' });

  await page.locator('.viewer-toolbar .viewer-info').click();
  await expect(page.getByTestId('photo-info')).toContainText('Seconde');
  await page.getByTestId('photo-info-close').click();

  await page.locator('.viewer-toolbar .viewer-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('notice')).toContainText('Photo supprimée');
  await expect(tiles(page)).toHaveCount(4);
  expect(await service.services.ports.capture.getMediaItem(newestFirst[1]!)).toBeNull();
  // The lightbox stays open, on the photo that followed the deleted one.
  await expect.poll(() => shownId(page)).toBe(newestFirst[2]);
  await page.keyboard.press('Escape');
});
