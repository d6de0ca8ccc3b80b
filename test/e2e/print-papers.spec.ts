import type { FakePrinter } from '../../server/print/printer.fake.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { unlockConsole } from './helpers.js';
import { textProblems } from './screens.helpers.js';

test.use({ viewport: { width: 800, height: 480 }, hasTouch: true });

/** The sizes of CUPS-PDF's PPD, as `lpoptions -p PDF -l` lists them. */
const PPD =
  'Custom.WIDTHxHEIGHT 11x14 11x17 13x19 16x20 16x24 2A 4A 8x10 8x12 A0 A1 A2 A3 A4 A5 AnsiA AnsiB AnsiC AnsiD AnsiE ArchA ArchB ArchC ' +
  'ArchD ArchE C0 C1 C2 C3 C4 C5 Env10 EnvC5 EnvDL EnvMonarch Executive ISOB0 ISOB1 ISOB2 ISOB3 ISOB4 ISOB5 JISB0 JISB1 JISB2 JISB3 ' +
  'JISB4 JISB5 Ledger Legal Letter RA0 RA1 RA2 RA3 RA4 SRA0 SRA1 SRA2 SRA3 SRA4 SuperA SuperB TabloidExtra Tabloid';

test('the paper list speaks the operator’s words: the printer’s default first, then by size, no driver keyword', async ({
  page,
  service,
}) => {
  const printer = service.printer as FakePrinter;
  printer.declared.Photo = { papers: PPD.split(' '), defaultPaper: 'A4', supplies: [] };
  // The printer is slow to tell its sizes: until it has, the list says it reads them, never a
  // list of one choice that looks complete.
  let answer: () => void = () => undefined;
  const told = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/api/admin/print/papers*', async (route) => {
    await told;
    await route.continue();
  });
  await unlockConsole(page, '/admin/print');
  const select = page.getByTestId('print-paper');
  await expect(select).toBeDisabled();
  await expect(select.locator('option')).toHaveText(['Lecture des formats de l’imprimante…']);
  answer();
  await expect(select).toBeEnabled();
  await expect(select.locator('option').nth(1)).toHaveText('A4');
  const labels = (await select.locator('option').allTextContents()).map((l) => l.trim());
  expect(labels[0]).toBe('Format par défaut de l’imprimante (A4)');
  expect(labels.slice(1, 5)).toEqual(['A4', '10 × 19 cm', '11 × 22 cm', '10 × 24 cm']);
  expect(labels).toContain('Letter (US)');
  for (const label of labels.slice(1)) expect(label).not.toMatch(/Ansi|Env|ISO|JIS[^)]|Custom|Arch|RA\d|SRA|Super|Ledger|^\d+x\d+$/);
  expect(labels.indexOf('A5')).toBeLessThan(labels.indexOf('A3'));
  expect(await textProblems(page)).toEqual([]);
  await page.getByTestId('print-paper').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/print-papers-800x480.png' });
});
