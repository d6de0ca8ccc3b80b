import { flickDirection, type TouchSample } from './flick.js';

/** A video's own controls (its seek bar) take a horizontal drag along the bottom of its box. */
const VIDEO_CONTROLS_HEIGHT = 56;

const sample = (e: PointerEvent): TouchSample => ({ x: e.clientX, y: e.clientY, t: e.timeStamp });

/** The photo is larger than the lightbox: the finger pans it, it does not turn it. */
function zoomedIn(canvas: Element): boolean {
  const image = canvas.querySelector('img');
  if (!image) return false;
  const box = image.getBoundingClientRect();
  const frame = canvas.getBoundingClientRect();
  return box.width > frame.width + 1 || box.height > frame.height + 1;
}

function onVideoControls(e: PointerEvent): boolean {
  if (!(e.target instanceof HTMLVideoElement)) return false;
  return e.clientY > e.target.getBoundingClientRect().bottom - VIDEO_CONTROLS_HEIGHT;
}

/**
 * Watches the fingers on a viewerjs lightbox and calls `turn` for a flick (see flick.ts). The
 * photo still follows the finger as viewerjs draws it; only the decision at the lift is ours.
 * Two fingers (a pinch) and a zoomed photo never turn it; a mouse is left to viewerjs.
 * Returns the function that stops watching.
 */
export function watchFlicks(turn: (direction: 'next' | 'prev') => void): () => void {
  let finger: number | null = null;
  let samples: TouchSample[] = [];
  let spoiled = false;
  let canvas: Element | null = null;
  let shownImage: Element | null = null;

  const down = (e: PointerEvent): void => {
    if (e.pointerType === 'mouse') return;
    if (finger !== null) {
      spoiled = true;
      return;
    }
    const target = e.target instanceof Element ? e.target.closest('.viewer-canvas') : null;
    if (!target || onVideoControls(e)) return;
    finger = e.pointerId;
    canvas = target;
    shownImage = target.querySelector('img');
    spoiled = zoomedIn(target);
    samples = [sample(e)];
  };
  const move = (e: PointerEvent): void => {
    if (e.pointerId === finger) samples.push(sample(e));
  };
  // Listened to after viewerjs's own (on the document): a drag past half the screen has turned
  // the photo already, and must not turn it twice.
  const up = (e: PointerEvent): void => {
    if (e.pointerId !== finger) return;
    finger = null;
    samples.push(sample(e));
    const turnedAlready = canvas?.querySelector('img') !== shownImage;
    if (spoiled || e.type === 'pointercancel' || turnedAlready) return;
    const direction = flickDirection(samples);
    if (direction) turn(direction);
  };

  window.addEventListener('pointerdown', down, true);
  window.addEventListener('pointermove', move, true);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
  return () => {
    window.removeEventListener('pointerdown', down, true);
    window.removeEventListener('pointermove', move, true);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', up);
  };
}
