import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts', 'test/renderer/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    globalSetup: ['test/support/vitest.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});
