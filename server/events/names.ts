/** Letters without their accents, so that names become plain ASCII. */
const plain = (text: string): string => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/&/g, ' et ');

/** An event's slug from its name: "Mariage Léa & Tom" → "mariage-lea-et-tom". */
export function slugify(name: string): string {
  return plain(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The part of a file name taken from the event: "Mariage Léa et Tom" → "Mariage-Lea-et-Tom". */
export function fileNamePart(eventName: string | null): string {
  const part = plain(eventName ?? '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return part || 'Boothdeck';
}

const two = (n: number): string => String(n).padStart(2, '0');

/** A date's local day as the date filters write it: 2026-11-22. */
export const localDay = (date: Date): string => `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;

const STEM = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{6})$/;

/** The capture app's stem is the local capture time, %Y%m%d-%H%M%S-%f. */
export function parseStem(stem: string): { time: number; second: string } | undefined {
  const m = STEM.exec(stem);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, micro] = m.map(Number) as number[];
  const date = new Date(y!, mo! - 1, d!, h!, mi!, s!, Math.floor(micro! / 1000));
  if (Number.isNaN(date.getTime()) || date.getMonth() !== mo! - 1) return undefined;
  return { time: date.getTime(), second: `${m[1]}-${m[2]}-${m[3]}_${m[4]}-${m[5]}-${m[6]}` };
}

/**
 * A photo's file name for downloads and exports: event name and capture time, with a number
 * for the second and later photos of the same second, so names never collide in an event.
 */
export function photoFileName(eventName: string | null, stem: string, rank: number, extension: string): string {
  const second = parseStem(stem)?.second ?? stem.replace(/[^0-9-]/g, '');
  const suffix = rank > 0 ? `-${rank + 1}` : '';
  const ext = /^\.[a-z0-9]{1,5}$/i.test(extension) ? extension.toLowerCase() : '.jpg';
  return `${fileNamePart(eventName)}_${second}${suffix}${ext}`;
}
