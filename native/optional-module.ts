import { createRequire } from 'node:module';

const requireModule = createRequire(import.meta.url);

/**
 * Loads a native module only when hardware is wanted, so a machine without it (or without the
 * hardware) still runs the service. The guard checks the shape we rely on.
 */
export async function loadOptionalModule<T>(name: string, guard: (m: unknown) => m is T): Promise<T> {
  let loaded: unknown;
  try {
    loaded = requireModule(name);
  } catch (err) {
    throw new Error(`Optional module ${name} is not available: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const candidate = typeof loaded === 'object' && loaded !== null && 'default' in loaded ? [loaded, loaded.default] : [loaded];
  const match = candidate.find(guard);
  if (match === undefined) throw new Error(`Optional module ${name} does not have the expected interface`);
  return match;
}
