/** A plain JSON object (not null, not an array): what configurations and request bodies are made of. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asObject = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
