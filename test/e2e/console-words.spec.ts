import type { Page } from '@playwright/test';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN, hasTouch: true });

/** What a user sees on the page, without what sits behind a closed "Détails". */
const visibleText = (page: Page): Promise<string> => page.locator('main').innerText();

test('the Actions page draws the button icons and keeps the trigger addresses behind Détails', async ({ page }) => {
  await unlockConsole(page, '/admin/actions');
  const icon = page.getByTestId('action-card-0').getByTestId('material-icon');
  await expect(icon).toBeVisible();
  // Drawn by the bundled font: a square glyph, not the name spelled out in letters. The font
  // arrives after the icon's box is laid out, so its load is awaited rather than sampled once.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.fonts].some((face) => face.family.replace(/"/g, '') === 'Material Icons' && face.status === 'loaded'),
      ),
    )
    .toBe(true);
  // The glyph's own width, not the box's (which is clipped to 1em): letters would run far wider.
  expect(await icon.evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(30);
  expect(await visibleText(page)).not.toMatch(/\/api\/actions\//);
  // The simulator's badge sits in the rail, over no button of the page.
  const badge = await page.getByTestId('simulator-badge').boundingBox();
  const add = await page.getByTestId('action-new').boundingBox();
  expect(badge && add && badge.x + badge.width <= add.x).toBe(true);

  await page.getByTestId('action-card-0').getByTestId('action-edit').click();
  await expect(page.getByTestId('action-editor')).toBeVisible();
  expect(await visibleText(page)).not.toMatch(/\/api\/actions\//);
  await page.getByTestId('group-general').getByTestId('details-toggle').click();
  await expect(page.getByTestId('details-text')).toContainText('/api/actions/image/0');
  // The filter is one of the capture app's own, by name.
  const filter = page.getByTestId('field-processing.image_filter');
  await expect(filter.locator('option')).toContainText(['Aucun filtre (photo d’origine)', '1977', 'Clarendon']);
  await filter.selectOption('clarendon');
  await expect(filter).toHaveValue('clarendon');
  await page.screenshot({ path: 'test-screens/action-editor-icons.png' });
});

test('hardware: a saved change does not move the page, and a pre-flash under 0,2 s is warned about', async ({ page }) => {
  await unlockConsole(page, '/admin/hardware');
  const slider = page.getByTestId('hw-flash-preflash');
  await slider.scrollIntoViewIfNeeded();
  const before = await slider.boundingBox();
  await slider.fill('0');
  await slider.dispatchEvent('change');
  await expect(page.getByTestId('notice')).toBeVisible();
  expect(await slider.boundingBox()).toEqual(before);
  await expect(page.getByTestId('hw-preflash-warning')).toContainText('0,2 s avant la fin du compte à rebours');
  await expect(page.getByTestId('hardware-page')).toContainText('Pré-flash : 0,0 s');
  // The decision names the threshold the field shows, not the top of its hysteresis band.
  await expect(page.getByTestId('hw-decision')).toContainText('seuil de 80 lux');
  await page.screenshot({ path: 'test-screens/hardware-preflash-warning.png' });
});
