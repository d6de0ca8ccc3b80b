/** C0 and C1 control characters (NUL, escape, …): never part of a name. */
const isControl = (code: number): boolean => code < 0x20 || (code >= 0x7f && code <= 0x9f);
const LINE_CHARS = new Set([0x09, 0x0a, 0x0d]);

export const NO_CONTROL_MESSAGE = 'must not contain control characters';

const codes = (value: string): number[] => Array.from(value, (c) => c.codePointAt(0) ?? 0);

export const hasNoControl = (value: string): boolean => !codes(value).some(isControl);
/** The same, with tabs and line breaks allowed (descriptions). */
export const hasNoControlButLines = (value: string): boolean => !codes(value).some((c) => isControl(c) && !LINE_CHARS.has(c));
