import { readFileSync } from 'node:fs';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';
import { readZip } from '../support/zip.js';

test.use({ viewport: BOOTH_SCREEN });

test('the operator creates events: the new one is current, alone with the badge “En cours”', async ({ page }) => {
  await unlockConsole(page, '/admin/events');
  await expect(page.getByTestId('events-empty')).toBeVisible();
  await page.getByTestId('event-name').fill('Mariage Léa & Tom');
  await expect(page.getByTestId('event-slug')).toHaveValue('mariage-lea-et-tom');
  await page.getByTestId('event-create').click();
  await expect(page.getByTestId('event-mariage-lea-et-tom').getByTestId('current-badge')).toHaveText('En cours');

  await page.getByTestId('event-name').fill('Soirée dansante');
  await page.getByTestId('event-slug').fill('soiree-2026');
  await page.getByTestId('event-create').click();
  // Archiving the current event is asked first, naming it and what guests will see.
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Archiver « Mariage Léa & Tom » ?');
  await expect(confirm).toContainText('Les invités voient aussitôt la galerie de « Soirée dansante »');
  await page.screenshot({ path: 'test-screens/events-archive-confirm.png' });
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('event-soiree-2026').getByTestId('current-badge')).toHaveText('En cours');
  await expect(page.getByTestId('current-badge')).toHaveCount(1);
  await page.getByTestId('event-mariage-lea-et-tom').getByTestId('event-history-toggle').click();
  await expect(page.getByTestId('event-mariage-lea-et-tom').getByTestId('event-history')).toContainText('Archivé');
  await page.screenshot({ path: 'test-screens/events.png' });

  // The archived event can be made current again; the other one is archived.
  await page.getByTestId('event-mariage-lea-et-tom').getByTestId('event-reopen').click();
  await expect(confirm).toContainText('« Soirée dansante » est archivé');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('event-mariage-lea-et-tom').getByTestId('current-badge')).toHaveText('En cours');
  await expect(page.getByTestId('current-badge')).toHaveCount(1);
  await expect(page.getByTestId('event-soiree-2026').getByTestId('event-reopen')).toBeVisible();
});

test('cancelling the archive question creates nothing', async ({ page, service }) => {
  service.services.events.create({ name: 'Gala' });
  await unlockConsole(page, '/admin/events');
  await page.getByTestId('event-name').fill('Autre');
  await page.getByTestId('event-create').click();
  await page.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('event-gala').getByTestId('current-badge')).toHaveText('En cours');
  await expect(page.getByTestId('event-autre')).toHaveCount(0);
  await expect(page.getByTestId('event-name')).toHaveValue('Autre');
});

test('a ZIP export downloads with a progress bar that ends complete', async ({ page, service }) => {
  service.services.events.create({ name: 'Gala' });
  for (let i = 0; i < 3; i++) await service.simulator!.capture(`gala ${i}`);
  await expect.poll(() => service.services.photoRepository.count()).toBe(3);
  await unlockConsole(page, '/admin/events');
  await expect(page.getByTestId('event-gala').getByTestId('photo-count')).toHaveText('3 photos');
  const download = page.waitForEvent('download');
  await page.getByTestId('event-gala').getByTestId('event-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Gala.zip');
  const entries = await readZip(readFileSync(await file.path()));
  expect(entries).toHaveLength(3);
  expect(entries.every((e) => /^Gala_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}(-\d)?\.jpg$/.test(e.name))).toBe(true);
  await expect(page.getByTestId('export-progress')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('export-progress')).toContainText('Export terminé : 3 photos.');
});

test('the console shows a large QR code of the public gallery’s address', async ({ page, service }) => {
  await unlockConsole(page, '/admin');
  await page.getByTestId('qr-card').getByTestId('qr-show').click();
  await expect(page.getByTestId('qr-dialog')).toBeVisible();
  const url = (await service.services.galleryLink.get()).url;
  expect(url).toBe(service.galleryUrl);
  await expect(page.getByTestId('qr-url')).toHaveText(url);
  const size = await page.getByTestId('qr-image').boundingBox();
  expect(size?.width).toBeGreaterThan(300);
  await page.screenshot({ path: 'test-screens/admin-qr.png' });
});
