import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { GuestSessions } from '../../server/print/guest-session.js';
import { SettingsRepository } from '../../server/settings/settings.repository.js';

const sessions = (): GuestSessions => new GuestSessions(new SettingsRepository(openDatabase(':memory:')));

describe('guest session cookies', () => {
  it('proves a cookie it issued on every request, and refuses a forged one each time, before and after', () => {
    const guests = sessions();
    const { id, cookie } = guests.issue();
    const forged = `${id}.${'A'.repeat(cookie.length - id.length - 1)}`;
    expect(guests.verify(forged)).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(guests.verify(cookie)).toBe(id);
    expect(guests.verify(forged)).toBeUndefined();
    expect(guests.verify(`${cookie}x`)).toBeUndefined();
    expect(guests.verify(`${cookie}.more`)).toBeUndefined();
  });

  it('keeps proving a guest’s cookie after thousands of other guests came, and after a restart on the same key', () => {
    const db = openDatabase(':memory:');
    const guests = new GuestSessions(new SettingsRepository(db));
    const first = guests.issue();
    expect(guests.verify(first.cookie)).toBe(first.id);
    for (let i = 0; i < 5000; i++) {
      const other = guests.issue();
      expect(guests.verify(other.cookie)).toBe(other.id);
    }
    expect(guests.verify(first.cookie)).toBe(first.id);
    expect(new GuestSessions(new SettingsRepository(db)).verify(first.cookie)).toBe(first.id);
    expect(sessions().verify(first.cookie)).toBeUndefined();
  });
});
