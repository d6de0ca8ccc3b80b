import { performance } from 'node:perf_hooks';
import type { Clock, TimerHandle } from './clock.port.js';

export function createSystemClock(): Clock {
  const timers = new Map<number, NodeJS.Timeout>();
  let next = 1;
  return {
    now: () => Date.now(),
    monotonic: () => performance.now(),
    setTimeout(fn, ms) {
      const id = next++;
      const timer = setTimeout(() => {
        timers.delete(id);
        fn();
      }, ms);
      timer.unref();
      timers.set(id, timer);
      return { id };
    },
    clearTimeout(handle: TimerHandle) {
      const timer = timers.get(handle.id);
      if (timer) clearTimeout(timer);
      timers.delete(handle.id);
    },
  };
}
