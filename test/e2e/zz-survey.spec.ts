import { expect, test } from './fixtures.js';
import { unlockConsole } from './helpers.js';

for (const vp of [{ width: 800, height: 480 }]) {
  test(`survey ${vp.width}x${vp.height}`, async ({ browser, baseURL, service }) => {
    test.setTimeout(120_000);
    service.services.events.create({ name: 'Mariage de Léa' });
    for (let i = 0; i < 3; i++) await service.simulator!.capture(`p${i}`);
    const ctx = await browser.newContext({ viewport: vp, hasTouch: true, locale: 'fr-FR', baseURL });
    const page = await ctx.newPage();
    await page.addInitScript(() => localStorage.setItem('boothdeck.keyboard', 'on'));
    await page.goto('/admin');
    await page.screenshot({ path: `test-screens/survey-${vp.width}-login.png` });
    await unlockConsole(page);
    for (const p of ['', '/actions', '/actions/1', '/events', '/gallery', '/print', '/hardware', '/dashboard']) {
      await page.goto('/admin' + p);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `test-screens/survey-${vp.width}${p.replace(/\//g, '-') || '-home'}.png` });
    }
    await page.goto('/admin/actions');
    await page.getByTestId('action-new').tap();
    await page.getByTestId('new-action-name').tap();
    await page.screenshot({ path: `test-screens/survey-${vp.width}-newaction.png` });
    expect(1).toBe(1);
  });
}
