import type { GuestPrintSession } from '../../server/contract/print.contract.js';

/** A guest's print session as the gallery reads it: printing on, nothing used, with `print`'s changes. */
export const guestSession = (print: Partial<GuestPrintSession['print']> = {}): GuestPrintSession => ({
  print: {
    enabled: true,
    quota: 5,
    used: 0,
    remaining: 5,
    limited_by: 'session',
    max_copies: 3,
    paused: null,
    paper: null,
    layout: 'fill',
    has_session: true,
    ...print,
  },
});
