import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from '../../server/auth/attempt-limiter.js';
import { FakeClock } from '../../server/core/clock/clock.fake.js';
import { TooManyRequestsError } from '../../server/core/errors.js';
import { clientKey } from '../../server/core/util/client-key.js';

const fail = (limiter: AttemptLimiter, address: string, local = false): void => {
  limiter.begin(address, local);
};

describe('the PIN attempt limiter', () => {
  it('forgives an attempt that succeeds', () => {
    const limiter = new AttemptLimiter(new FakeClock());
    for (let i = 0; i < 10; i++) limiter.begin('10.0.0.2', false)();
    expect(() => limiter.begin('10.0.0.2', false)).not.toThrow();
  });

  it('keys an IPv6 client by its /64, so rotating addresses does not buy more guesses', () => {
    const limiter = new AttemptLimiter(new FakeClock());
    for (let i = 0; i < 5; i++) fail(limiter, `2001:db8:1:2:0:0:0:${i + 1}`);
    expect(() => limiter.begin('2001:db8:1:2::99', false)).toThrow(TooManyRequestsError);
    expect(() => limiter.begin('2001:db8:1:3::1', false)).not.toThrow();
  });

  it('stops the whole network after 30 failures, but never the booth itself', () => {
    const limiter = new AttemptLimiter(new FakeClock());
    for (let c = 0; c < 6; c++) for (let i = 0; i < 5; i++) fail(limiter, `192.168.1.${c + 10}`);
    expect(() => limiter.begin('192.168.1.99', false)).toThrow(TooManyRequestsError);
    expect(() => limiter.begin('127.0.0.1', true)).not.toThrow();
  });

  it('lets a client try again once its failures leave the window', () => {
    const clock = new FakeClock();
    const limiter = new AttemptLimiter(clock);
    for (let i = 0; i < 5; i++) fail(limiter, '10.0.0.3');
    expect(() => limiter.begin('10.0.0.3', false)).toThrow(TooManyRequestsError);
    clock.advance(5 * 60_000 + 1);
    expect(() => limiter.begin('10.0.0.3', false)).not.toThrow();
  });

  it('keys IPv6 clients by their /64, whatever the notation', () => {
    expect(clientKey('2001::5:1:2:3:4')).not.toBe(clientKey('2001::6:1:2:3:4'));
    expect(clientKey('2001:0:0:5:9:9:9:9')).toBe(clientKey('2001::5:1:2:3:4'));
    expect(clientKey('::ffff:192.168.1.4')).toBe('192.168.1.4');
  });

  it('makes the booth wait 1, 2, 4, 8, 16 then 30 s after wrong PINs, never minutes', () => {
    const clock = new FakeClock();
    const limiter = new AttemptLimiter(clock);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      fail(limiter, '127.0.0.1', true);
      try {
        limiter.begin('127.0.0.1', true);
      } catch (err) {
        waits.push((err as TooManyRequestsError).retryAfterSeconds);
      }
      clock.advance(waits[waits.length - 1]! * 1000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 30, 30]);
  });

  it('forgives a right PIN only its own attempt: the wrong ones before it still count', () => {
    const clock = new FakeClock();
    const limiter = new AttemptLimiter(clock);
    for (let i = 0; i < 4; i++) {
      fail(limiter, '127.0.0.1', true);
      clock.advance(30_000);
    }
    limiter.begin('127.0.0.1', true)();
    fail(limiter, '127.0.0.1', true);
    expect(() => limiter.begin('127.0.0.1', true)).toThrow(expect.objectContaining({ retryAfterSeconds: 16 }));
    for (let i = 0; i < 4; i++) limiter.begin('10.0.0.9', false)();
    for (let i = 0; i < 5; i++) fail(limiter, '10.0.0.9');
    expect(() => limiter.begin('10.0.0.9', false)).toThrow(TooManyRequestsError);
  });

  it('lets the booth start afresh once the owner’s PIN was typed right there', () => {
    const clock = new FakeClock();
    const limiter = new AttemptLimiter(clock);
    for (let i = 0; i < 4; i++) {
      fail(limiter, '127.0.0.1', true);
      clock.advance(30_000);
    }
    limiter.clearLocal();
    fail(limiter, '127.0.0.1', true);
    expect(() => limiter.begin('127.0.0.1', true)).toThrow(expect.objectContaining({ retryAfterSeconds: 1 }));
  });
});
