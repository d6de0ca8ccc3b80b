import ipaddr from 'ipaddr.js';
import { keepBounded } from './bounded-map.js';

/**
 * The client as every per-client limit counts it (sign-in attempts, live streams, guest
 * sessions and print quotas), from a socket's address, never from a header. An IPv4 address
 * stands for itself, also when it comes IPv4-mapped; an IPv6 phone rotates its addresses within
 * its /64 at will, so the /64 is what it cannot leave.
 */
export function clientKey(address: string): string {
  const known = keys.get(address);
  if (known !== undefined) return known;
  const key = keyOf(address);
  // Every request of every phone asks: parsing the address each time was a measurable part of a
  // guest's request. Bounded; the oldest address is forgotten first.
  keepBounded(keys, address, key, KEYS_KEPT);
  return key;
}

const KEYS_KEPT = 4096;
const keys = new Map<string, string>();

function keyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  const prefix = parsed.parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
