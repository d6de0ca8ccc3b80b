const two = (n: number): string => String(n).padStart(2, '0');

/** A date's local day as the date filters write it: 2026-11-22. */
export const localDay = (date: Date): string => `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
