import type { Page } from '@playwright/test';
import type { PrinterStatus } from '../../server/contract/print.contract.js';
import type { FakePrinter } from '../../server/print/printer.fake.js';
import type { TestService } from '../support/service.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, PHONE, unlockConsole } from './helpers.js';

/** Each printer state as the operator and a guest see it: in words, live, before anyone prints. */
interface PrinterCase {
  name: string;
  set(printer: FakePrinter): void;
  pause: PrinterStatus['pause'];
  /** The state line on the Impression page and the home screen. */
  state: string;
  /** What the guest's modal says before sending (null: nothing to say). */
  guest: string | null;
}

const CASES: PrinterCase[] = [
  { name: 'ready', set: () => undefined, pause: null, state: 'Prête à imprimer', guest: null },
  {
    name: 'paused',
    set: (p) => p.setState('Photo', 'stopped', ['paused'], 'Paused'),
    pause: 'stopped',
    state: 'En pause',
    guest: 'L’imprimante est en pause : votre impression attendra qu’elle reprenne.',
  },
  {
    name: 'out-of-paper',
    set: (p) => p.setState('Photo', 'idle', ['media-empty-error', 'com.dnp-ribbon-feed-error'], ''),
    pause: 'out_of_paper',
    state: 'Plus de papier',
    guest: 'L’imprimante n’a plus de papier : votre impression attendra qu’on en remette.',
  },
  {
    name: 'no-printer',
    set: (p) => {
      p.printers = [
        { name: 'Selphy', state: 'idle', reasons: [], message: '', isDefault: false },
        { name: 'DNP', state: 'idle', reasons: [], message: '', isDefault: false },
      ];
    },
    pause: 'no_printer',
    state: 'Aucune imprimante choisie',
    guest: 'L’impression est indisponible : aucune imprimante n’est prête à la borne. Demandez à l’équipe.',
  },
  {
    name: 'unreachable',
    set: (p) => {
      p.reachable = false;
    },
    pause: 'unreachable',
    state: 'Le système d’impression ne répond pas',
    guest: 'L’imprimante ne répond pas : votre impression attendra qu’elle revienne.',
  },
];

/** A fresh fake printer state, with ribbon and paper levels it reports, read by the watcher at once. */
async function setPrinter(service: TestService, c: PrinterCase): Promise<void> {
  const printer = service.printer as FakePrinter;
  Object.assign(printer, {
    reachable: true,
    printers: [{ name: 'Photo', state: 'idle', reasons: [], message: '', isDefault: true }],
  });
  printer.declared.Photo = {
    papers: ['w288h432', 'A5'],
    defaultPaper: 'w288h432',
    supplies: [
      { name: 'Ruban', level: 14, type: 'ribbon-wax' },
      { name: 'Papier 10×15', level: 62, type: 'media' },
    ],
  };
  c.set(printer);
  await service.services.printWorker.watch.detailsOf('Photo', true).catch(() => undefined);
  await service.services.printWorker.refreshPrinter();
  expect(service.services.printWorker.printerStatus().pause).toBe(c.pause);
}

async function photo(service: TestService): Promise<string> {
  service.services.events.create({ name: 'Mariage' });
  const item = await service.simulator!.capture('a');
  await expect.poll(() => service.services.photoRepository.find(item.id)).toBeDefined();
  return item.id;
}

test.describe('at the booth', () => {
  test.use({ viewport: BOOTH_SCREEN, hasTouch: true });

  test('the Impression page and the home screen say each printer state in words, live', async ({ page, service }) => {
    const photoId = await photo(service);
    await unlockConsole(page, '/admin/print');
    for (const c of CASES) {
      await setPrinter(service, c);
      await expect(page.getByTestId('printer-state-line')).toHaveAttribute('data-pause', c.pause ?? '');
      await expect(page.getByTestId('printer-state-text')).toContainText(c.state);
      await expect(page.getByText(/com\.dnp/)).toBeHidden();
      await page.screenshot({ path: `test-screens/print-page-${c.name}.png`, fullPage: true });
    }
    await setPrinter(service, CASES[0]!);
    await page.getByTestId('print-settings').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-screens/print-page-settings.png' });

    // A job CUPS forgot: "état inconnu", retried or counted by hand, never counted by itself.
    const printer = service.printer as FakePrinter;
    printer.hold = true;
    const jobId = (await service.services.print.requestAdmin(photoId, 2)).job.id;
    await expect.poll(() => printer.jobs.length).toBe(1);
    printer.forget(printer.jobs[0]!.id);
    const row = page.getByTestId(`print-job-${jobId}`);
    await expect(row.getByTestId('print-job-state')).toHaveText('État inconnu');
    await expect(row.getByTestId('print-job-retry')).toBeVisible();
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-screens/print-page-unknown-job.png' });
    await row.getByTestId('print-job-count').click();
    await expect(row.getByTestId('print-job-state')).toHaveText('Imprimée');
    await expect(page.getByTestId('counter-total')).toContainText('2');

    await page.goto('/admin');
    for (const c of CASES) {
      await setPrinter(service, c);
      await expect(page.getByTestId('printer-glance')).toHaveAttribute('data-pause', c.pause ?? '');
      await expect(page.getByTestId('printer-glance-state')).toHaveText(c.state);
      await page.screenshot({ path: `test-screens/print-home-${c.name}.png`, fullPage: true });
    }
    await page.getByTestId('printer-glance-action').click();
    await expect(page).toHaveURL(/\/admin\/print$/);
  });

  test('the operator is told before printing to a paused printer, and without a printer is sent to choose one', async ({
    page,
    service,
  }) => {
    await photo(service);
    await setPrinter(service, CASES[1]!);
    await unlockConsole(page, '/admin/gallery');
    await page.getByTestId('photo-tile').first().click();
    await page.locator('.viewer-print').click();
    await expect(page.getByTestId('admin-print-warning')).toContainText('En pause');
    await page.screenshot({ path: 'test-screens/print-admin-dialog-paused.png' });
    await page.getByTestId('admin-print-send').click();
    await expect(page.getByText('1 copie mise en file : elles sortiront quand l’imprimante sera prête.')).toBeVisible();

    await setPrinter(service, CASES[3]!);
    await page.locator('.viewer-print').click();
    await expect(page.getByTestId('admin-print-no-printer')).toBeVisible();
    await expect(page.getByTestId('admin-print-send')).toHaveCount(0);
    await page.screenshot({ path: 'test-screens/print-admin-dialog-no-printer.png' });
    await page.getByTestId('admin-print-choose').click();
    await expect(page).toHaveURL(/\/admin\/print$/);
  });
});

test.describe('on a guest’s phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  async function openPrint(page: Page): Promise<void> {
    await page.getByTestId('photo-tile').first().click();
    await page.locator('.viewer-print').click();
    await expect(page.getByTestId('print-dialog')).toBeVisible();
  }

  test('the copies modal previews the print and says why it would wait or cannot print, as the printer changes', async ({
    page,
    service,
  }) => {
    await photo(service);
    await setPrinter(service, CASES[0]!);
    await page.goto('/');
    await openPrint(page);
    await expect(page.getByTestId('print-preview')).toHaveAttribute('data-layout', 'fill');
    for (const c of CASES) {
      await setPrinter(service, c);
      if (c.guest === null) {
        await expect(page.getByTestId('print-before')).toHaveCount(0);
        await expect(page.getByTestId('print-refusal')).toHaveCount(0);
      } else if (c.pause === 'no_printer') {
        await expect(page.getByTestId('print-refusal')).toHaveText(c.guest);
        await expect(page.getByTestId('print-send')).toBeDisabled();
      } else {
        await expect(page.getByTestId('print-before')).toHaveText(c.guest);
        await expect(page.getByTestId('print-send')).toBeEnabled();
      }
      await page.screenshot({ path: `test-screens/print-guest-${c.name}.png` });
    }
    await setPrinter(service, CASES[0]!);
    await service.services.settings.update({ print: { layout: 'fit' } });
    await page.reload();
    await openPrint(page);
    await expect(page.getByTestId('print-preview')).toHaveAttribute('data-layout', 'fit');
    await page.screenshot({ path: 'test-screens/print-guest-fit.png' });
  });
});
