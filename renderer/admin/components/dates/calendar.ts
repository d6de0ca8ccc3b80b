/**
 * The calendar a date picker draws: days as `YYYY-MM-DD` (what the service takes), weeks from
 * Monday as France and the United Kingdom count them, every date at local noon so that no time
 * zone or change of summer time moves a day to its neighbour.
 */

export interface CalendarDay {
  /** `YYYY-MM-DD`. */
  day: string;
  /** Local noon of that day. */
  date: Date;
  /** Inside the month shown, not a neighbour's day filling its first or last week. */
  inMonth: boolean;
}

/** A month: its year and its number, 1 to 12. */
export interface Month {
  year: number;
  month: number;
}

const pad = (n: number, width: number): string => n.toString().padStart(width, '0');

/** The day of a local date, as `YYYY-MM-DD`. */
export function dayOf(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
}

/** `YYYY-MM-DD` at local noon, or null for anything that is not a day of the calendar. */
export function parseDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(year, month - 1, date, 12);
  return at.getFullYear() === year && at.getMonth() === month - 1 && at.getDate() === date ? at : null;
}

/** The month `count` months after `from` (before it when negative). */
export function addMonths(from: Month, count: number): Month {
  const index = from.year * 12 + (from.month - 1) + count;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The month a day falls in. */
export function monthOf(date: Date): Month {
  return { year: date.getFullYear(), month: date.getMonth() + 1 };
}

/**
 * The weeks that show `month`, Monday first: whole weeks, so the first and the last may start or
 * end in the neighbouring months. Always six weeks, so the grid never changes height between months.
 */
export function monthWeeks({ year, month }: Month): CalendarDay[][] {
  const first = new Date(year, month - 1, 1, 12);
  // getDay(): 0 is Sunday. Days to go back to reach the week's Monday.
  const back = (first.getDay() + 6) % 7;
  const weeks: CalendarDay[][] = [];
  for (let w = 0; w < 6; w++) {
    const week: CalendarDay[] = [];
    for (let d = 0; d < 7; d++) {
      const date = new Date(year, month - 1, 1 - back + w * 7 + d, 12);
      week.push({ day: dayOf(date), date, inMonth: date.getMonth() === month - 1 });
    }
    weeks.push(week);
  }
  return weeks;
}
