/** A plain JSON object (not null, not an array): what configurations and request bodies are made of. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asObject = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * A field of a record by name, only when the record itself holds it: names that every object
 * answers through its prototype (`toString`, `constructor`, `__proto__`) read as absent.
 */
export const ownValue = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** Sets a field as an own, plain property, even when named `__proto__` (never the prototype). */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
