import { describe, expect, it } from 'vitest';
import { noticePlace } from '../../renderer/admin/components/notice-place.js';

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
});
