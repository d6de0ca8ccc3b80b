/** C0 and C1 control characters (NUL, escape, bell, …): never part of a name. */
const isControl = (code: number): boolean => code < 0x20 || (code >= 0x7f && code <= 0x9f);
/**
 * Characters that change how the text around them is shown rather than being shown: the
 * bidirectional embeddings, overrides and isolates (U+202E turns "gnp.exe" around), line and
 * paragraph separators, lone surrogate halves and the two non-characters of each plane's end.
 * Marks that languages need (LRM, RLM, zero-width joiners in emoji) stay allowed.
 */
const isInvisibleControl = (code: number): boolean =>
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069) ||
  code === 0x2028 ||
  code === 0x2029 ||
  (code >= 0xd800 && code <= 0xdfff) ||
  (code & 0xfffe) === 0xfffe;
const LINE_CHARS = new Set([0x09, 0x0a, 0x0d]);

export const NO_CONTROL_MESSAGE = 'must not contain control characters';

const codes = (value: string): number[] => Array.from(value, (c) => c.codePointAt(0) ?? 0);

export const hasNoControl = (value: string): boolean => !codes(value).some((c) => isControl(c) || isInvisibleControl(c));
/** The same, with tabs and line breaks allowed (descriptions). */
export const hasNoControlButLines = (value: string): boolean =>
  !codes(value).some((c) => (isControl(c) && !LINE_CHARS.has(c)) || isInvisibleControl(c));
