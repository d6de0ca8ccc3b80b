import type { FakePrinter } from '../../server/print/printer.fake.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

test.use({ viewport: BOOTH_SCREEN });

test('home: photos arriving with no event are warned about; then the current event and today’s count; restart button', async ({
  page,
  service,
}) => {
  await service.simulator!.capture('orphan');
  await expect.poll(() => service.services.photoRepository.count()).toBe(1);
  await unlockConsole(page, '/admin');
  await expect(page.getByTestId('home-no-event')).toBeVisible();
  await expect(page.getByTestId('home-warning-no-event')).toContainText('les invités ne les voient pas');
  await expect(page.getByTestId('home-today')).toHaveText('1 photo aujourd’hui');

  service.services.events.create({ name: 'Anniversaire de Zoé' });
  await service.simulator!.capture('party');
  await expect(page.getByTestId('home-event-name')).toHaveText('Anniversaire de Zoé');
  await expect(page.getByTestId('home-today')).toHaveText('2 photos aujourd’hui');
  await expect(page.getByTestId('home-warning-no-event')).toHaveCount(0);
  await page.screenshot({ path: 'test-screens/home.png' });

  await page.getByRole('button', { name: 'Redémarrer l’application de capture' }).click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('restart-banner')).toBeVisible();
});

test('home: the printer card says when the queue waits, within seconds, and leads to the print page', async ({ page, service }) => {
  const printer = service.printer as FakePrinter;
  await unlockConsole(page, '/admin');
  await expect(page.getByTestId('printer-glance')).toHaveAttribute('data-pause', '');
  printer.setState('Photo', 'stopped', ['media-empty-error'], 'Paper out');
  await expect(page.getByTestId('printer-glance')).not.toHaveAttribute('data-pause', '', { timeout: 5000 });
  await expect(page.getByTestId('printer-glance-state')).toContainText('papier');
  await page.screenshot({ path: 'test-screens/home-printer-paused.png' });
  await page.getByTestId('printer-glance-action').click();
  await expect(page.getByTestId('print-page')).toBeVisible();
});
