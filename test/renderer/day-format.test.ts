import { describe, expect, it } from 'vitest';
import { formatDay } from '../../renderer/shared/i18n/dates.js';

describe('a day in a date filter', () => {
  it('reads in the page’s language, never as mm/dd/yyyy', () => {
    expect(formatDay('2026-11-25', 'fr')).toBe('25 nov. 2026');
    expect(formatDay('2026-11-25', 'en')).toBe('25 Nov 2026');
    expect(formatDay('2026-01-05', 'fr')).not.toMatch(/\d{2}\/\d{2}\/\d{2}/);
  });

  it('shows nothing for no day or a malformed one', () => {
    expect(formatDay('', 'fr')).toBe('');
    expect(formatDay('11/25/2026', 'en')).toBe('');
  });
});
