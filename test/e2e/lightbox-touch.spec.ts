import type { Page } from '@playwright/test';
import type { TestService } from '../support/service.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { drag, pageErrors } from './finger.js';
import { BOOTH_SCREEN, PHONE, tiles, unlockConsole } from './helpers.js';

/** The photo the lightbox shows, once its image has loaded. */
const shownId = (page: Page): Promise<string | null> =>
  page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('.viewer-canvas img');
    if (!img || !img.complete || img.naturalWidth === 0) return null;
    return /photos\/([0-9a-f-]{36})\/preview/.exec(img.getAttribute('src') ?? '')?.[1] ?? null;
  });

/** Two fingers spreading apart along the middle of the screen: a pinch to zoom. */
async function pinchOut(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const size = page.viewportSize()!;
  const x0 = size.width / 2;
  const y = size.height / 2;
  let timestamp = Date.now() / 1000;
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number | null) => {
    timestamp += 0.016;
    const touchPoints =
      spread === null
        ? []
        : [
            { x: x0 - spread, y, id: 1 },
            { x: x0 + spread, y, id: 2 },
          ];
    return cdp.send('Input.dispatchTouchEvent', { type, touchPoints, timestamp });
  };
  await send('touchStart', 20);
  for (let spread = 40; spread <= 100; spread += 20) await send('touchMove', spread);
  await send('touchEnd', null);
  await cdp.detach();
}

/** The horizontal extent of each button's name under the lightbox, left to right. */
const labelSpans = (page: Page): Promise<[number, number][]> =>
  page.locator('.viewer-toolbar li[data-label]').evaluateAll((els) =>
    els
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .map((el): [number, number] => {
        const box = el.getBoundingClientRect();
        const width = parseFloat(getComputedStyle(el, '::after').width);
        const middle = box.left + box.width / 2;
        return [middle - width / 2, middle + width / 2];
      }),
  );

/** Names apart from each other and inside the screen. */
async function expectLabelsApart(page: Page): Promise<void> {
  const spans = await labelSpans(page);
  expect(spans.length).toBeGreaterThan(2);
  for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1] + 4);
  expect(spans[0]![0]).toBeGreaterThanOrEqual(0);
  expect(spans[spans.length - 1]![1]).toBeLessThanOrEqual(page.viewportSize()!.width);
}

async function seed(service: TestService, count: number): Promise<string[]> {
  service.services.events.create({ name: 'Mariage Léa et Tom' });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await service.simulator!.capture(`p${i}`)).id);
  await expect.poll(() => service.services.photoRepository.count()).toBe(count);
  return ids.reverse();
}

test.describe('the guest’s phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('a 60 px flick turns the photo, both ways; a vertical move, a short nudge and a pinch do not', async ({ page, service }) => {
    const newestFirst = await seed(service, 3);
    await page.goto('/');
    await tiles(page).first().tap();
    await expect.poll(() => shownId(page)).toBe(newestFirst[0]);
    await expectLabelsApart(page);

    await drag(page, -60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
    // A slow drag of 60 px that rests before lifting turns it too: the distance is enough.
    await drag(page, -60, 4, { restMs: 300 });
    await expect.poll(() => shownId(page)).toBe(newestFirst[2]);
    await drag(page, 60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[1]);

    // A finger going up the screen, a finger barely moving and resting, and a pinch (one of
    // its fingers goes 80 px to the left) leave the photo where it is.
    await drag(page, -20, -120);
    await drag(page, -25, 0, { restMs: 300 });
    await pinchOut(page);
    // Had any of them turned to the next photo, the arrow would lead back to the middle one.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => shownId(page)).toBe(newestFirst[0]);
  });

  test('a swipe past the first or the last photo keeps it on screen, with no error on the page', async ({ page, service }) => {
    const errors = pageErrors(page);
    const newestFirst = await seed(service, 3);
    await page.goto('/');
    await tiles(page).nth(1).tap();
    await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
    // Back to the first photo (the image before it does not exist), then once more past it.
    await drag(page, 60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[0]);
    await drag(page, 300, 0, { steps: 10 });
    await drag(page, -60, 0);
    await drag(page, -60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[2]);
    await drag(page, -300, 0, { steps: 10 });
    await drag(page, 60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
    expect(errors).toEqual([]);
  });

  test('while the booth is out of reach, the photo says so and comes back by itself', async ({ page, service }) => {
    const newestFirst = await seed(service, 2);
    await page.goto('/');
    await expect(tiles(page)).toHaveCount(2);
    await page.route('**/api/gallery/photos/*/preview*', (route) => route.abort('internetdisconnected'));
    await tiles(page).first().tap();
    const away = page.getByTestId('lightbox-away');
    await expect(away).toBeVisible();
    await expect(away).toContainText('La borne ne répond pas pour le moment');
    // No broken-image icon under the sentence.
    await expect(page.locator('.viewer-canvas img')).toHaveCSS('visibility', 'hidden');
    await page.screenshot({ path: 'test-screens/guest-lightbox-away.png' });
    // The guest can still turn to the next photo, which says the same.
    await drag(page, -60, 0);
    await expect(away).toBeVisible();

    await page.unroute('**/api/gallery/photos/*/preview*');
    await expect.poll(() => shownId(page), { timeout: 15_000 }).toBe(newestFirst[1]);
    await expect(away).toBeHidden();
    await expect(page.locator('.viewer-canvas img')).toBeVisible();
  });
  test('a photo whose request hangs (a Wi-Fi that swallows it) gets the same sentence, then comes', async ({ page, service }) => {
    const newestFirst = await seed(service, 1);
    await page.goto('/');
    await expect(tiles(page)).toHaveCount(1);
    // The request is never answered, as on a phone that walked out of the Wi-Fi's reach.
    await page.route('**/api/gallery/photos/*/preview*', () => undefined);
    await tiles(page).first().tap();
    await expect(page.getByTestId('lightbox-away')).toBeVisible({ timeout: 12_000 });
    await page.unroute('**/api/gallery/photos/*/preview*');
    await expect.poll(() => shownId(page), { timeout: 15_000 }).toBe(newestFirst[0]);
    await expect(page.getByTestId('lightbox-away')).toBeHidden();
  });
});

test.describe('the console at the booth', () => {
  test.use({ viewport: BOOTH_SCREEN, hasTouch: true });

  test('a 60 px flick turns the photo on the 1280 px touchscreen', async ({ page, service }) => {
    const newestFirst = await seed(service, 3);
    await unlockConsole(page, '/admin/gallery');
    await tiles(page).nth(1).tap();
    await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
    await drag(page, -60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[2]);
    await drag(page, 60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[1]);
    await drag(page, 60, 0);
    await expect.poll(() => shownId(page)).toBe(newestFirst[0]);
    await page.screenshot({ path: 'test-screens/admin-lightbox-touch.png' });

    // "Supprimer" and "Informations" read apart; the corner badge leaves the close button whole.
    await expectLabelsApart(page);
    const badge = (await page.getByTestId('simulator-badge').boundingBox())!;
    const close = (await page.getByTestId('lightbox-close').boundingBox())!;
    const apart =
      close.x >= badge.x + badge.width ||
      badge.x >= close.x + close.width ||
      close.y >= badge.y + badge.height ||
      badge.y >= close.y + close.height;
    expect(apart).toBe(true);
    await page.getByTestId('lightbox-close').tap();
    await expect(page.locator('.viewer-canvas img')).toHaveCount(0);
  });
});
