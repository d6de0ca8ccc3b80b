import { expect, test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('the dashboard says, in the operator’s words, when the disk is full or the clock is behind', async ({ page }) => {
  await unlockConsole(page);
  await expect(page.getByTestId('capture-status')).toBeVisible();
  await expect(page.getByTestId('warning-disk-full')).toHaveCount(0);
  await expect(page.getByTestId('warning-clock-behind')).toHaveCount(0);

  // The conditions themselves are tested on the API; here, only what the operator reads.
  await page.route('**/api/admin/status', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as Record<string, unknown>;
    await route.fulfill({ response: res, json: { ...body, warnings: { disk_full: true, clock_behind: true } } });
  });
  await page.reload();
  await expect(page.getByTestId('warning-disk-full')).toContainText('stockage de la borne est plein');
  await expect(page.getByTestId('warning-clock-behind')).toContainText('horloge de la borne est en retard');
  await page.screenshot({ path: 'test-screens/dashboard-warnings.png' });
});
