/**
 * Keeps `value` under `key` in a map that holds at most `max` entries: when full, the entry kept
 * longest (the first in insertion order) makes room. For caches of what is cheap to compute again.
 */
export function keepBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
