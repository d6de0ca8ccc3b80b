import type { PaperSize } from '../contract/print.contract.js';

const MM_PER_POINT = 25.4 / 72;
const UNIT_MM: Record<string, number> = { in: 25.4, mm: 1, cm: 10, pt: MM_PER_POINT };

/** Named sizes of PPDs and IPP, portrait, in millimetres. */
const NAMED: Record<string, [number, number]> = {
  a3: [297, 420],
  a4: [210, 297],
  a5: [148, 210],
  a6: [105, 148],
  b5: [176, 250],
  isob5: [176, 250],
  letter: [215.9, 279.4],
  legal: [215.9, 355.6],
  executive: [184.2, 266.7],
  postcard: [100, 148],
  dblpostcard: [148, 200],
  c5: [162, 229],
  c6: [114, 162],
  l: [89, 127],
  '2l': [127, 178],
  kg: [102, 152],
};

const round = (mm: number): number => Math.round(mm * 10) / 10;
const sized = (name: string, w: number, h: number): PaperSize => ({ name, width_mm: round(w), height_mm: round(h) });

/**
 * A paper name as a PPD or IPP gives it, with its size where the name tells it: `A5`, `Letter`,
 * `w288h432` (points), `4x6` (inches), `Custom.10x15cm`, `na_index-4x6_4x6in`. Unknown names keep
 * null sizes: the preview then shows the photo's own shape.
 */
export function paperSize(name: string): PaperSize {
  const base = name.replace(/\.Fullbleed$|\.Borderless$/i, '');
  const named = NAMED[base.toLowerCase()];
  if (named) return sized(name, named[0], named[1]);
  const points = /^w(\d+(?:\.\d+)?)h(\d+(?:\.\d+)?)/.exec(base);
  if (points) return sized(name, Number(points[1]) * MM_PER_POINT, Number(points[2]) * MM_PER_POINT);
  const pwg = /_(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(in|mm)$/.exec(base);
  const plain = pwg ?? /^(?:Custom\.)?(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(in|mm|cm|pt)?$/i.exec(base);
  if (plain) {
    const unit = UNIT_MM[(plain[3] ?? 'in').toLowerCase()] ?? 25.4;
    return sized(name, Number(plain[1]) * unit, Number(plain[2]) * unit);
  }
  return { name, width_mm: null, height_mm: null };
}
