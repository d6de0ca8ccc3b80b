import { afterEach, describe, expect, it } from 'vitest';
import { dayOf, monthWeeks, parseDay } from '../../renderer/admin/components/dates/calendar.js';

/**
 * Booths stand in zones with summer time (and this machine runs in UTC, where no day ever has 23
 * or 25 hours): the calendar is read in such zones, Node taking a new TZ at once.
 */
const ZONES = ['Europe/Paris', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
const machineZone = process.env.TZ;
afterEach(() => {
  if (machineZone === undefined) delete process.env.TZ;
  else process.env.TZ = machineZone;
});

describe('the date picker’s calendar, in the booth’s own zone', () => {
  it.each(ZONES)('keeps every day once, in order, across the changes of summer time (%s)', (zone) => {
    process.env.TZ = zone;
    // Paris changes on 29 March and 25 October 2026; Santiago at midnight on 5 April and
    // 6 September (that midnight does not exist); Lord Howe by half an hour.
    for (const month of [3, 4, 9, 10]) {
      const days = monthWeeks({ year: 2026, month })
        .flat()
        .map((d) => d.day);
      expect(new Set(days).size).toBe(42);
      const next = (day: string): string => dayOf(new Date(new Date(`${day}T12:00:00`).getTime() + 24 * 3_600_000));
      for (let i = 1; i < days.length; i++) expect(days[i], `${zone}: the day after ${days[i - 1]}`).toBe(next(days[i - 1]!));
    }
    expect(dayOf(parseDay('2026-09-06')!)).toBe('2026-09-06');
    expect(dayOf(parseDay('2026-10-25')!)).toBe('2026-10-25');
  });

  it.each(ZONES)('reads February whole in leap years and only then (%s)', (zone) => {
    process.env.TZ = zone;
    const inMonth = (year: number) =>
      monthWeeks({ year, month: 2 })
        .flat()
        .filter((d) => d.inMonth)
        .map((d) => d.day);
    expect(inMonth(2028)).toHaveLength(29);
    expect(inMonth(2028).at(-1)).toBe('2028-02-29');
    expect(inMonth(2027)).toHaveLength(28);
    // Every hundredth year is no leap year, every four hundredth is.
    expect(inMonth(2100)).toHaveLength(28);
    expect(inMonth(2000)).toHaveLength(29);
    expect(parseDay('2100-02-29')).toBeNull();
    expect(parseDay('2027-02-29')).toBeNull();
  });
});
