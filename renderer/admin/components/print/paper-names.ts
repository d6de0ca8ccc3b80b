import type { PaperSize } from '../../../../server/contract/print.contract.js';
import { t } from '../../../shared/i18n/index.js';

const ISO = /^(a[3-6]|b5|c5|c6)$/i;
const US: Record<string, string> = { letter: 'Letter', legal: 'Legal', executive: 'Executive' };
const BORDERLESS = /\.(Fullbleed|Borderless)$/i;

/** Centimetres as a photographer says them: whole above 5 cm ("10 × 15 cm"), one decimal below. */
function cm(mm: number, locale: string): string {
  const value = mm / 10;
  const digits = value >= 5 ? 0 : 1;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

/**
 * A printer's paper as the operator names it: "A5", "10 × 15 cm", "Letter (US)", "sans marge"
 * when the driver prints to the edge. A name that tells no size stays as the driver wrote it.
 */
export function paperName(paper: PaperSize, locale: string): string {
  const base = paper.name.replace(BORDERLESS, '');
  const edge = BORDERLESS.test(paper.name) ? ` ${t('printAdmin.paperBorderless')}` : '';
  if (ISO.test(base)) return base.toUpperCase() + edge;
  const us = US[base.toLowerCase()];
  if (us) return `${us} (US)${edge}`;
  if (paper.width_mm === null || paper.height_mm === null) return paper.name;
  const [short, long] = [paper.width_mm, paper.height_mm].sort((a, b) => a - b);
  return `${cm(short!, locale)} × ${cm(long!, locale)} cm${edge}`;
}

const area = (p: PaperSize): number => (p.width_mm ?? Infinity) * (p.height_mm ?? 1);

/**
 * The papers to offer: the printer's own default first, then by size from the smallest, those
 * of unknown size last; two names for the same paper are offered once (the default's, or the first).
 */
export function paperChoices(papers: PaperSize[], defaultName: string | null, locale: string): { name: string; label: string }[] {
  const sorted = [...papers].sort((a, b) => {
    if (a.name === defaultName) return -1;
    if (b.name === defaultName) return 1;
    return area(a) - area(b) || a.name.localeCompare(b.name);
  });
  const seen = new Set<string>();
  const out: { name: string; label: string }[] = [];
  for (const paper of sorted) {
    const label = paperName(paper, locale);
    if (seen.has(label)) continue;
    seen.add(label);
    out.push({ name: paper.name, label });
  }
  return out;
}
