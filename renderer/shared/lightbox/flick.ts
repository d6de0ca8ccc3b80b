/**
 * A lightbox's swipe, as phones and tablets feel it: a short flick turns the photo, whatever the
 * screen's width (viewerjs alone asked for half the screen: 640 px on the booth's touchscreen).
 */

/** A finger's place at a moment (ms, from the event's own clock). */
export interface TouchSample {
  x: number;
  y: number;
  t: number;
}

/** A slow, deliberate drag this long turns the photo. */
export const FLICK_DISTANCE = 50;
/** A fast flick turns it from this far... */
export const FLICK_MIN_DISTANCE = 20;
/** ...at this speed (px/ms) over its last moments. */
export const FLICK_SPEED = 0.35;
/** How far back the lift's speed is measured. */
export const SPEED_WINDOW_MS = 100;
/** Beyond this angle from the horizontal, the finger was scrolling or closing, not turning. */
const MAX_SLOPE = Math.tan((35 * Math.PI) / 180);

/**
 * Where the photo goes for a finger that went through `samples` (first to last, one finger):
 * 'next' for a flick to the left, 'prev' to the right, null for a tap, a vertical move or a drag
 * too short and too slow.
 */
export function flickDirection(samples: readonly TouchSample[]): 'next' | 'prev' | null {
  const start = samples[0];
  const end = samples[samples.length - 1];
  if (!start || !end || samples.length < 2) return null;
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const distance = Math.abs(dx);
  if (distance < FLICK_MIN_DISTANCE || Math.abs(dy) > distance * MAX_SLOPE) return null;
  if (distance < FLICK_DISTANCE && !fastInDirection(samples, Math.sign(dx))) return null;
  return dx < 0 ? 'next' : 'prev';
}

/** The finger was still moving fast the same way when it lifted. */
function fastInDirection(samples: readonly TouchSample[], sign: number): boolean {
  const end = samples[samples.length - 1]!;
  let from = samples[0]!;
  for (let i = samples.length - 2; i >= 0; i--) {
    from = samples[i]!;
    if (end.t - from.t >= SPEED_WINDOW_MS) break;
  }
  const elapsed = Math.max(end.t - from.t, 1);
  const speed = ((end.x - from.x) * sign) / elapsed;
  return speed >= FLICK_SPEED;
}
