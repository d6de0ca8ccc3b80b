// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { paperChoices, paperName } from '../../renderer/admin/components/print/paper-names.js';
import { setLocale } from '../../renderer/shared/i18n/index.js';
import { paperSize } from '../../server/print/paper-sizes.js';

const papers = (...names: string[]) => names.map(paperSize);

describe('paper sizes in the operator’s words', () => {
  afterEach(() => setLocale('fr'));

  it('names a paper as a photographer does, never the driver’s keyword', () => {
    expect(paperName(paperSize('A5'), 'fr')).toBe('A5');
    expect(paperName(paperSize('w288h432'), 'fr')).toBe('10 × 15 cm');
    expect(paperName(paperSize('Custom.4x6in'), 'fr')).toBe('10 × 15 cm');
    expect(paperName(paperSize('na_5x7_5x7in'), 'fr')).toBe('13 × 18 cm');
    expect(paperName(paperSize('w288h432.Fullbleed'), 'fr')).toBe('10 × 15 cm sans marge');
    expect(paperName(paperSize('Letter'), 'fr')).toBe('Letter (US)');
    // A size below 5 cm keeps its decimal, with a comma in French.
    expect(paperName({ name: 'tiny', width_mm: 35, height_mm: 45 }, 'fr')).toBe('3,5 × 4,5 cm');
    expect(paperName({ name: 'tiny', width_mm: 35, height_mm: 45 }, 'en')).toBe('3.5 × 4.5 cm');
    expect(paperName(paperSize('ISOB5'), 'fr')).toBe('B5');
    expect(paperName(paperSize('JISB5'), 'fr')).toBe('B5 (JIS)');
    // A PPD's own words for a size become the size.
    expect(paperName(paperSize('EnvMonarch'), 'fr')).toBe('10 × 19 cm');
    expect(paperName(paperSize('8x10'), 'fr')).toBe('20 × 25 cm');
    // A name that tells no size stays as written.
    expect(paperName(paperSize('DNPStrip'), 'fr')).toBe('DNPStrip');
  });

  it('offers the printer’s default first, then by size, unknown sizes last, each paper once', () => {
    const choices = paperChoices(papers('A4', 'DNPStrip', 'w288h432', 'A5', 'Custom.4x6in', 'na_5x7_5x7in'), 'A4', 'fr');
    expect(choices.map((c) => c.label)).toEqual(['A4', '10 × 15 cm', '13 × 18 cm', 'A5', 'DNPStrip']);
    expect(['w288h432', 'Custom.4x6in']).toContain(choices[1]!.name);
  });

  it('turns a generic PPD’s 66 sizes into the papers a booth prints on, in words, each once', () => {
    // The list of CUPS-PDF's PPD, as `lpoptions -p PDF -l` gives it.
    const ppd =
      'Custom.WIDTHxHEIGHT 11x14 11x17 13x19 16x20 16x24 2A 4A 8x10 8x12 A0 A1 A2 A3 A4 A5 AnsiA AnsiB AnsiC AnsiD AnsiE ArchA ArchB ArchC ' +
      'ArchD ArchE C0 C1 C2 C3 C4 C5 Env10 EnvC5 EnvDL EnvMonarch Executive ISOB0 ISOB1 ISOB2 ISOB3 ISOB4 ISOB5 JISB0 JISB1 JISB2 JISB3 ' +
      'JISB4 JISB5 Ledger Legal Letter RA0 RA1 RA2 RA3 RA4 SRA0 SRA1 SRA2 SRA3 SRA4 SuperA SuperB TabloidExtra Tabloid';
    const labels = paperChoices(papers(...ppd.split(' ')), 'A4', 'fr').map((c) => c.label);
    expect(labels[0]).toBe('A4');
    // No driver's keyword is left, and nothing a booth never prints on.
    for (const label of labels) expect(label).toMatch(/^([ABC]\d( \(JIS\))?|(Letter|Legal|Executive|Tabloid) \(US\)|\d+ × \d+ cm)$/);
    expect(labels).not.toContain('A2');
    expect(labels).toContain('Letter (US)');
    // 13 × 19 in, the largest sheet photo printers take.
    expect(labels[labels.length - 1]).toBe('33 × 48 cm');
    // "AnsiA" is Letter, "Ledger" is Tabloid: offered once, by the name that says what it is.
    expect(labels.filter((l) => l === '22 × 28 cm' || l === 'Letter (US)')).toEqual(['Letter (US)']);
    expect(labels).not.toContain('28 × 43 cm');
    expect(new Set(labels).size).toBe(labels.length);
    // Smallest first after the default.
    expect(labels.slice(1, 4)).toEqual(['10 × 19 cm', '11 × 22 cm', '10 × 24 cm']);
    expect(labels.indexOf('A5')).toBeLessThan(labels.indexOf('A3'));
  });
});
