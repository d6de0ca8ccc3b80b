import { describe, expect, it } from 'vitest';
import { noticePlace, noticeRoom } from '../../renderer/admin/components/notice-place.js';

const screen = { top: 0, bottom: 480, left: 0, right: 800 };
const notice = { width: 720, height: 70 };
const field = (top: number) => ({ top, bottom: top + 56, left: 140, right: 760 });

describe('where a notice goes', () => {
  it('at the foot of the screen while nothing is being typed', () => {
    expect(noticePlace(notice, screen, [])).toBe('bottom');
    expect(noticePlace(notice, screen, [field(100)])).toBe('bottom');
  });

  it('at the top when the field being typed in lies at the foot', () => {
    expect(noticePlace(notice, screen, [field(380)])).toBe('top');
  });

  it('above the keyboard: its room ends where the keyboard begins', () => {
    // The keyboard takes the lower 260 px; the field was brought just above it.
    const room = { ...screen, bottom: 220 };
    expect(noticePlace(notice, room, [field(150)])).toBe('top');
    expect(noticePlace(notice, room, [field(10)])).toBe('bottom');
  });

  it('a field beside the notice, not under it, does not move it', () => {
    const aside = { top: 400, bottom: 456, left: 0, right: 30 };
    expect(noticePlace(notice, screen, [aside])).toBe('bottom');
  });

  it('above the console’s bar when the bar runs along the foot, never over its places', () => {
    const portrait = { width: 720, height: 1280 };
    const bar = { top: 1120, bottom: 1280, left: 0, right: 720 };
    expect(noticeRoom(portrait, 0, bar).bottom).toBe(1120);
    // The keyboard covers the bar: the room ends at the keyboard.
    expect(noticeRoom(portrait, 330, bar).bottom).toBe(950);
  });

  it('beside the console’s rail when the rail runs down the left, never over "Verrouiller"', () => {
    const rail = { top: 0, bottom: 480, left: 0, right: 104 };
    expect(noticeRoom({ width: 800, height: 480 }, 0, rail)).toEqual({ top: 0, bottom: 480, left: 104, right: 800 });
    expect(noticeRoom({ width: 800, height: 480 }, 250, rail)).toEqual({ top: 0, bottom: 230, left: 104, right: 800 });
    // No bar (the keypad's screen): the whole screen.
    expect(noticeRoom({ width: 800, height: 480 }, 0, null)).toEqual({ top: 0, bottom: 480, left: 0, right: 800 });
  });
});
