/** A JSON text's top-level object, to be checked field by field; undefined for anything else. */
export function parseObject(text: string): Record<string, unknown> | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}
