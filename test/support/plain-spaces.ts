/**
 * French sentences keep their words together with non-breaking spaces (before a colon, inside
 * « », between a number and its unit; renderer/shared/i18n). Tests of the words themselves
 * compare them with plain spaces; `test/renderer/typography.test.ts` checks the spaces.
 */
export function plain<T extends string | readonly string[] | null | undefined>(text: T): T {
  const one = (s: string): string => s.replace(/[\u00a0\u202f]/g, ' ');
  if (text === null || text === undefined) return text;
  return (typeof text === 'string' ? one(text) : text.map(one)) as T;
}
