import { plainLetters } from '../../common/text.js';
import { parseStem } from '../capture/stem.js';

/** The part of a file name taken from the event: "Mariage Léa et Tom" → "Mariage-Lea-et-Tom". */
export function fileNamePart(eventName: string | null): string {
  const part = plainLetters(eventName ?? '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return part || 'Boothdeck';
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
