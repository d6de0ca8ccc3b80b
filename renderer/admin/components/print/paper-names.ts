import type { PaperSize } from '../../../../server/contract/print.contract.js';
import { t } from '../../../shared/i18n/index.js';

/** ISO sizes an operator names as such ("A4", "B5"); a PPD writes ISO B sizes "ISOB5". */
const ISO = /^(?:iso)?([abc]\d)$/i;
const JIS = /^jis(b\d)$/i;
const US: Record<string, string> = { letter: 'Letter', legal: 'Legal', executive: 'Executive', tabloid: 'Tabloid' };
const BORDERLESS = /\.(Fullbleed|Borderless)$/i;
/** A PPD's placeholder for sizes typed in by hand, not a paper. */
const CUSTOM_PLACEHOLDER = /^Custom\.WIDTHxHEIGHT$/i;
/** Larger than 13 × 19 in ("Super B", the largest sheet photo printers take): not a booth's paper. */
const LARGEST_MM = 483.5;

/** Centimetres as a photographer says them: whole above 5 cm ("10 × 15 cm"), one decimal below. */
function cm(mm: number, locale: string): string {
  const value = mm / 10;
  const digits = value >= 5 ? 0 : 1;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

/**
 * A printer's paper as the operator names it: "A5", "B5 (JIS)", "Letter (US)", else its size
 * ("10 × 15 cm"), "sans marge" when the driver prints to the edge. A name that tells no size
 * stays as the driver wrote it.
 */
export function paperName(paper: PaperSize, locale: string): string {
  const base = paper.name.replace(BORDERLESS, '');
  const edge = BORDERLESS.test(paper.name) ? ` ${t('printAdmin.paperBorderless')}` : '';
  const iso = ISO.exec(base);
  if (iso) return iso[1]!.toUpperCase() + edge;
  const jis = JIS.exec(base);
  if (jis) return `${jis[1]!.toUpperCase()} (JIS)${edge}`;
  const us = US[base.toLowerCase()];
  if (us) return `${us} (US)${edge}`;
  if (paper.width_mm === null || paper.height_mm === null) return paper.name;
  const [short, long] = [paper.width_mm, paper.height_mm].sort((a, b) => a - b);
  return `${cm(short!, locale)} × ${cm(long!, locale)} cm${edge}`;
}

const area = (p: PaperSize): number => (p.width_mm ?? Infinity) * (p.height_mm ?? 1);
/** Whether the name says what the paper is by itself ("A5", "Letter"), rather than by its size. */
const named = (p: PaperSize): boolean => {
  const base = p.name.replace(BORDERLESS, '');
  return ISO.test(base) || JIS.test(base) || base.toLowerCase() in US;
};
/** One paper whatever its names ("AnsiA" is "Letter"): its size to the millimetre, and whether borderless. */
const sameness = (p: PaperSize): string =>
  p.width_mm === null || p.height_mm === null
    ? `name:${p.name}`
    : `${[Math.round(p.width_mm), Math.round(p.height_mm)].sort((a, b) => a - b).join('x')}${BORDERLESS.test(p.name) ? ' edge' : ''}`;

/**
 * The papers to offer: the printer's own default first, then by size from the smallest, those
 * of unknown size last. A paper with several names is offered once (the default's name, else a
 * name that says what it is, "Letter" before "AnsiA"); the PPD's custom-size placeholder and
 * sizes larger than a photo printer's largest sheet (A0, posters) are left out unless default.
 */
export function paperChoices(papers: PaperSize[], defaultName: string | null, locale: string): { name: string; label: string }[] {
  const offered = papers.filter(
    (p) => p.name === defaultName || (!CUSTOM_PLACEHOLDER.test(p.name) && Math.max(p.width_mm ?? 0, p.height_mm ?? 0) <= LARGEST_MM),
  );
  const sorted = offered.sort((a, b) => {
    if (a.name === defaultName) return -1;
    if (b.name === defaultName) return 1;
    return area(a) - area(b) || Number(named(b)) - Number(named(a)) || a.name.localeCompare(b.name);
  });
  const seen = new Set<string>();
  const labels = new Set<string>();
  const out: { name: string; label: string }[] = [];
  for (const paper of sorted) {
    const label = paperName(paper, locale);
    if (seen.has(sameness(paper)) || labels.has(label)) continue;
    seen.add(sameness(paper));
    labels.add(label);
    out.push({ name: paper.name, label });
  }
  return out;
}
