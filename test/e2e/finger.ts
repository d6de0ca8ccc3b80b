import type { Page } from '@playwright/test';

/** When the last scripted touch ended, in CDP's seconds. */
let lastTouchAt = 0;

/**
 * One finger moved by (dx, dy) from the middle of the screen, as real touch events, in `steps`
 * moves 16 ms apart; `restMs` is how long it rests before lifting (0: a flick).
 */
export async function drag(page: Page, dx: number, dy: number, { steps = 5, restMs = 0 } = {}): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const size = page.viewportSize()!;
  const x0 = size.width / 2;
  const y0 = size.height / 2;
  // Event times must only grow, from one gesture to the next, as a real finger's do: Chromium's
  // tap detection stops turning taps into clicks after touches that go back in time.
  let timestamp = Math.max(Date.now() / 1000, lastTouchAt + 0.1);
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', at: { x: number; y: number } | null, afterMs: number) => {
    timestamp += afterMs / 1000;
    return cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at ? [{ ...at, id: 1 }] : [], timestamp });
  };
  await send('touchStart', { x: x0, y: y0 }, 0);
  for (let i = 1; i <= steps; i++) await send('touchMove', { x: x0 + (dx * i) / steps, y: y0 + (dy * i) / steps }, 16);
  if (restMs > 0) await send('touchMove', { x: x0 + dx, y: y0 + dy }, restMs);
  await send('touchEnd', null, 16);
  lastTouchAt = timestamp;
  await cdp.detach();
}

/**
 * Every error the page raises from now on, as "message (where)": a walk ends by expecting it
 * empty, so that an error with no visible effect still fails it. Uncaught errors and rejected
 * promises, and also what Vue's production build catches in a component (a handler, a watcher, a
 * render) and only logs with console.error: for the operator it is the same tap that did
 * nothing. The browser's own line for a response with an error status is not one (the walks ask
 * for 4xx on purpose, and the page says those in words).
 */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${error.message} (${page.url()})`));
  page.on('console', (message) => {
    if (message.type() !== 'error' || message.text().startsWith('Failed to load resource:')) return;
    errors.push(`${message.text().split('\n')[0]} (console, ${page.url()})`);
  });
  return errors;
}
