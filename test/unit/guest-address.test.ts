import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { clientAddressOf } from '../../server/print/guest-session.js';

const from = (remoteAddress: string): Request => ({ socket: { remoteAddress } }) as unknown as Request;

describe('the address a print quota counts', () => {
  it('is the socket’s IPv4 address, mapped or not', () => {
    expect(clientAddressOf(from('192.168.4.23'))).toBe('192.168.4.23');
    expect(clientAddressOf(from('::ffff:192.168.4.23'))).toBe('192.168.4.23');
  });

  it('is the /64 of an IPv6 address, which a phone may change at will within it', () => {
    expect(clientAddressOf(from('2001:db8:1:2:a:b:c:d'))).toBe('2001:db8:1:2::/64');
    expect(clientAddressOf(from('2001:DB8:1:2::99'))).toBe('2001:db8:1:2::/64');
    expect(clientAddressOf(from('fe80::1c2:3ff:fe4:5'))).toBe('fe80:0:0:0::/64');
  });
});
