import ipaddr from 'ipaddr.js';

/**
 * The client as every per-client limit counts it (sign-in attempts, live streams, guest
 * sessions and print quotas), from a socket's address, never from a header. An IPv4 address
 * stands for itself, also when it comes IPv4-mapped; an IPv6 phone rotates its addresses within
 * its /64 at will, so the /64 is what it cannot leave.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  const prefix = parsed.parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
