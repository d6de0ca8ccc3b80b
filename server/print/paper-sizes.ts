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
  // The rest of a generic PPD's list (CUPS-PDF, Gutenprint): sized, so that the console can name
  // them in centimetres and leave out those no booth prints on.
  a0: [841, 1189],
  a1: [594, 841],
  a2: [420, 594],
  '2a': [1189, 1682],
  '4a': [1682, 2378],
  isob0: [1000, 1414],
  isob1: [707, 1000],
  isob2: [500, 707],
  isob3: [353, 500],
  isob4: [250, 353],
  jisb0: [1030, 1456],
  jisb1: [728, 1030],
  jisb2: [515, 728],
  jisb3: [364, 515],
  jisb4: [257, 364],
  jisb5: [182, 257],
  c0: [917, 1297],
  c1: [648, 917],
  c2: [458, 648],
  c3: [324, 458],
  c4: [229, 324],
  env10: [104.8, 241.3],
  envc5: [162, 229],
  envdl: [110, 220],
  envmonarch: [98.4, 190.5],
  ansia: [215.9, 279.4],
  ansib: [279.4, 431.8],
  ansic: [431.8, 558.8],
  ansid: [558.8, 863.6],
  ansie: [863.6, 1117.6],
  archa: [228.6, 304.8],
  archb: [304.8, 457.2],
  archc: [457.2, 609.6],
  archd: [609.6, 914.4],
  arche: [914.4, 1219.2],
  ledger: [279.4, 431.8],
  tabloid: [279.4, 431.8],
  tabloidextra: [304.8, 457.2],
  ra0: [860, 1220],
  ra1: [610, 860],
  ra2: [430, 610],
  ra3: [305, 430],
  ra4: [215, 305],
  sra0: [900, 1280],
  sra1: [640, 900],
  sra2: [450, 640],
  sra3: [320, 450],
  sra4: [225, 320],
  supera: [227, 356],
  superb: [330, 483],
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
