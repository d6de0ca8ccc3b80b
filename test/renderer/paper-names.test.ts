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
    // A name that tells no size stays as written.
    expect(paperName(paperSize('EnvMonarch'), 'fr')).toBe('EnvMonarch');
  });

  it('offers the printer’s default first, then by size, unknown sizes last, each paper once', () => {
    const choices = paperChoices(papers('A4', 'EnvMonarch', 'w288h432', 'A5', 'Custom.4x6in', 'na_5x7_5x7in'), 'A4', 'fr');
    expect(choices.map((c) => c.label)).toEqual(['A4', '10 × 15 cm', '13 × 18 cm', 'A5', 'EnvMonarch']);
    expect(['w288h432', 'Custom.4x6in']).toContain(choices[1]!.name);
  });
});
