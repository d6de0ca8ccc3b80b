import type { Page } from '@playwright/test';
import QRCode from 'qrcode';
import type { TestService } from '../support/service.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { PHONE } from './helpers.js';

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

interface SharedCall {
  title: string | undefined;
  files: { name: string; type: string; size: number }[];
}

/** Replaces the Web Share API with a recorder, before the page's own code runs. */
async function stubShare(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: SharedCall[] = [];
    Object.assign(window, { __shared: calls });
    Object.defineProperty(navigator, 'canShare', { value: (data: ShareData) => (data.files?.length ?? 0) > 0, configurable: true });
    Object.defineProperty(navigator, 'share', {
      value: (data: ShareData) => {
        calls.push({ title: data.title, files: (data.files ?? []).map((f) => ({ name: f.name, type: f.type, size: f.size })) });
        return Promise.resolve();
      },
      configurable: true,
    });
  });
}

async function seed(service: TestService, photos: number): Promise<void> {
  service.services.events.create({ name: 'Mariage de Léa et Tom au château', welcome: 'Bienvenue ! Partagez vos plus beaux souvenirs.' });
  for (let i = 0; i < photos; i++) await service.simulator!.capture(`p${i}`);
  await expect.poll(() => service.services.photoRepository.count()).toBe(photos);
}

test('the top of the gallery names the event, counts its photos and greets guests', async ({ page, service }) => {
  await seed(service, 2);
  await page.goto('/');
  await expect(page.getByTestId('gallery-title')).toHaveText('Mariage de Léa et Tom au château');
  await expect(page.getByTestId('gallery-count')).toHaveText('2 photos');
  await expect(page.getByTestId('gallery-welcome')).toHaveText('Bienvenue ! Partagez vos plus beaux souvenirs.');
  await service.simulator!.capture('live');
  await expect(page.getByTestId('gallery-count')).toHaveText('3 photos');
  await page.screenshot({ path: 'test-screens/guest-extras-top.png' });
});

test('Share sends the photo’s file to the phone’s share sheet, with visible labels', async ({ page, service }) => {
  await stubShare(page);
  await seed(service, 1);
  await page.goto('/');
  await page.getByTestId('photo-tile').first().click();
  const share = page.getByRole('button', { name: 'Partager' });
  await expect(share).toBeVisible();
  await expect(page.getByRole('button', { name: 'Télécharger' })).toBeVisible();
  const labels = await page
    .locator('.viewer-toolbar li[data-label]')
    .evaluateAll((els) => els.map((el) => getComputedStyle(el, '::after').content));
  expect(labels).toEqual(['"Partager"', '"Télécharger"', '"Imprimer"']);
  await page.screenshot({ path: 'test-screens/guest-extras-lightbox.png' });

  await share.click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __shared: SharedCall[] }).__shared))
    .toEqual([
      {
        title: 'Mariage de Léa et Tom au château',
        files: [
          { name: expect.stringMatching(/^Mariage-de-Lea-et-Tom-au-chateau_[\d_-]+\.jpg$/), type: 'image/jpeg', size: expect.any(Number) },
        ],
      },
    ]);
});

test('without the Web Share API, no Share button: a QR code of the photo for another phone', async ({ page, service }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
  });
  await seed(service, 1);
  await page.goto('/');
  await page.getByTestId('photo-tile').first().click();
  await expect(page.getByRole('button', { name: 'Télécharger' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Partager' })).toHaveCount(0);
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  await page.getByRole('button', { name: 'Code QR' }).click();
  const dialog = page.getByTestId('photo-qr-dialog');
  await expect(dialog).toContainText('Sur un autre téléphone');
  const photoId = await page.getByTestId('photo-tile').first().getAttribute('data-photo-id');
  await expect(page.getByTestId('photo-qr-address')).toHaveText(`${service.localUrl}/api/gallery/photos/${photoId}/download`);
  const qr = page.getByTestId('photo-qr-image');
  await expect(qr).toBeVisible();
  // The code is the photo's address, drawn on the phone: the same as the library draws it here.
  const expected = await QRCode.toString(`${service.localUrl}/api/gallery/photos/${photoId}/download`, {
    type: 'svg',
    margin: 2,
    errorCorrectionLevel: 'M',
    color: { dark: '#000000', light: '#ffffff' },
  });
  expect(decodeURIComponent((await qr.getAttribute('src')) ?? '')).toBe(`data:image/svg+xml;charset=utf-8,${expected}`);
  await page.screenshot({ path: 'test-screens/guest-photo-qr.png' });
  await page.getByTestId('photo-qr-close').click();
  await expect(dialog).toHaveCount(0);
  expect(downloads).toEqual([]);
});
