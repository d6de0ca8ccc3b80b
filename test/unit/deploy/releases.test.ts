import { describe, expect, it } from 'vitest';
import { bytesNeeded, pruneReleases, roomFor, type StoredRelease } from '../../../deploy/src/rules/releases.js';

const MB = 1048576;
const r = (name: string, mtimeMs: number, state: StoredRelease['state'], bytes = 100 * MB): StoredRelease => ({
  name,
  mtimeMs,
  bytes,
  state,
});

describe('which releases the booth keeps', () => {
  it('keeps current, previous and three healthy; a failed one goes at once; of the untried, only the newest', () => {
    const releases = [
      r('A', 1, 'healthy'),
      r('B', 2, 'healthy'),
      r('C', 3, 'healthy'),
      r('D', 4, 'failed'),
      r('E', 5, 'healthy'),
      r('F', 6, 'healthy'),
      r('U1', 7, 'untried'),
      r('U2', 8, 'untried'),
    ];
    const removed = pruneReleases(releases, { current: 'F', previous: 'E' }, 3);
    expect(removed).toEqual([
      { name: 'U1', why: 'a newer one waits to be tried' },
      { name: 'D', why: 'it failed' },
      { name: 'B', why: '3 healthy releases are kept' },
      { name: 'A', why: '3 healthy releases are kept' },
    ]);
  });

  it('never removes current or previous, even failed or old', () => {
    const releases = [r('old', 1, 'healthy'), r('bad', 2, 'failed'), r('x', 3, 'healthy'), r('y', 4, 'healthy'), r('z', 5, 'healthy')];
    expect(pruneReleases(releases, { current: 'bad', previous: 'old' }, 1).map((x) => x.name)).toEqual(['y', 'x']);
  });
});

describe('room for a release', () => {
  const need = { releaseBytes: 60 * MB, copies: 2, databaseBytes: 5 * MB, reserveBytes: 100 * MB };

  it('needs the release twice (download and stored copy), the database twice (snapshot, trial copy) and the reserve', () => {
    expect(bytesNeeded(need)).toBe(230 * MB);
    expect(roomFor(need, 230 * MB, [], { current: undefined, previous: undefined })).toEqual({
      ok: true,
      needed: 230 * MB,
      free: 230 * MB,
      remove: [],
    });
  });

  it('removes the fewest old releases that make room: failed first, then untried, then the oldest healthy; never current or previous', () => {
    const stored = [
      r('cur', 9, 'healthy'),
      r('prev', 8, 'healthy'),
      r('old', 1, 'healthy'),
      r('older', 0, 'healthy'),
      r('bad', 5, 'failed'),
      r('wait', 6, 'untried'),
    ];
    const plan = roomFor(need, 50 * MB, stored, { current: 'cur', previous: 'prev' });
    expect(plan).toMatchObject({ ok: true, remove: ['bad', 'wait'] });
    expect(roomFor(need, 0, stored, { current: 'cur', previous: 'prev' })).toMatchObject({ ok: true, remove: ['bad', 'wait', 'older'] });
  });

  it('refuses, removing nothing, when even removing every old release leaves too little', () => {
    const stored = [r('cur', 9, 'healthy'), r('bad', 5, 'failed', 10 * MB)];
    expect(roomFor(need, 200 * MB, stored, { current: 'cur', previous: undefined })).toEqual({
      ok: false,
      needed: 230 * MB,
      free: 200 * MB,
      remove: [],
    });
  });
});
