import { describe, expect, it } from 'vitest';
import { addMonths, dayOf, monthWeeks, parseDay } from '../../renderer/admin/components/dates/calendar.js';

// Its days in zones with summer time, and leap years: test/unit/calendar-zones.test.ts (Node sets the zone).
describe('the date picker’s calendar', () => {
  it('shows a month in six whole weeks from Monday, its neighbours’ days marked', () => {
    // November 2026 starts on a Sunday: its first week begins on Monday 26 October.
    const weeks = monthWeeks({ year: 2026, month: 11 });
    expect(weeks).toHaveLength(6);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(weeks[0]!.map((d) => d.day)).toEqual([
      '2026-10-26',
      '2026-10-27',
      '2026-10-28',
      '2026-10-29',
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
    ]);
    expect(weeks[0]!.map((d) => d.inMonth)).toEqual([false, false, false, false, false, false, true]);
    expect(weeks.flat().filter((d) => d.inMonth)).toHaveLength(30);
    expect(weeks.flat().every((d) => d.date.getDay() === (weeks.flat().indexOf(d) + 1) % 7)).toBe(true);
  });

  it('moves across years by months, and reads only real days', () => {
    expect(addMonths({ year: 2026, month: 12 }, 1)).toEqual({ year: 2027, month: 1 });
    expect(addMonths({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
    expect(addMonths({ year: 2026, month: 5 }, -24)).toEqual({ year: 2024, month: 5 });
    expect(parseDay('2026-02-30')).toBeNull();
    expect(parseDay('11/25/2026')).toBeNull();
    expect(dayOf(parseDay('2028-02-29')!)).toBe('2028-02-29');
  });
});
