import { useRunTempRoot } from './temp-root.js';

export default function globalSetup(): () => void {
  // The services the tests start run background work at the suite's own priority: beside another
  // load on every core, work at SCHED_IDLE never runs (server/core/background/own-priority.ts).
  // Set here, not in playwright.config.ts, which the bench imports for Chromium's flags: there it
  // put every service the bench measures at normal priority.
  process.env.BOOTHDECK_BACKGROUND_PRIORITY ??= 'normal';
  return useRunTempRoot('playwright');
}
