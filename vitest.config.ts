import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts', 'test/renderer/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    globalSetup: ['test/support/vitest.global-setup.ts'],
    // Sized for a slow board or a busy runner (the suite must pass beside stress-ng on every core):
    // a limit only ends a test that is already failing, so it costs a quiet machine nothing.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for what the test expects, however slowly it comes (Vitest's own 1 s is a
    // quiet machine's); a test that must see something never happen says so with a fake clock.
    expect: { poll: { timeout: 30_000 } },
    // Background work at the suite's own priority: beside another load on every core, work at
    // SCHED_IDLE never runs (server/core/background/own-priority.ts). The tests of that lowering
    // ask for it themselves.
    env: { BOOTHDECK_BACKGROUND_PRIORITY: 'normal' },
    reporters: ['default'],
  },
});
