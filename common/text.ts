/**
 * Text rules shared by the service and the console. This folder is imported by both sides, so
 * it depends on nothing: no Node, no DOM, no package.
 */

/** Letters without their accents, so that names become plain ASCII. */
export const plainLetters = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' et ');

/** An event's slug from its name: "Mariage Léa & Tom" → "mariage-lea-et-tom". */
export function slugify(name: string): string {
  return plainLetters(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
