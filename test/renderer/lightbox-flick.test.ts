import { describe, expect, it } from 'vitest';
import { flickDirection, type TouchSample } from '../../renderer/shared/lightbox/flick.js';

/** A finger from x=200 moved by (dx, dy) in `steps` moves `everyMs` apart, then rested `restMs`. */
function path(dx: number, dy: number, { steps = 5, everyMs = 16, restMs = 0 } = {}): TouchSample[] {
  const samples: TouchSample[] = [{ x: 200, y: 400, t: 0 }];
  for (let i = 1; i <= steps; i++) samples.push({ x: 200 + (dx * i) / steps, y: 400 + (dy * i) / steps, t: i * everyMs });
  if (restMs > 0) samples.push({ x: 200 + dx, y: 400 + dy, t: steps * everyMs + restMs });
  return samples;
}

describe('a flick in the lightbox', () => {
  it('turns to the next photo for a 60 px move to the left, to the previous one to the right', () => {
    expect(flickDirection(path(-60, 0))).toBe('next');
    expect(flickDirection(path(60, 5))).toBe('prev');
  });

  it('turns for 50 px and more even when the finger rests before lifting', () => {
    expect(flickDirection(path(-55, 0, { restMs: 400 }))).toBe('next');
    expect(flickDirection(path(-45, 0, { restMs: 400 }))).toBeNull();
  });

  it('turns for a short move only when it is fast at the lift', () => {
    expect(flickDirection(path(-30, 0, { steps: 3, everyMs: 16 }))).toBe('next');
    expect(flickDirection(path(-30, 0, { steps: 10, everyMs: 40 }))).toBeNull();
  });

  it('leaves a tap, a nudge and a vertical move alone', () => {
    expect(flickDirection([{ x: 10, y: 10, t: 0 }])).toBeNull();
    expect(flickDirection(path(-10, 0))).toBeNull();
    expect(flickDirection(path(-80, -200))).toBeNull();
  });
});
