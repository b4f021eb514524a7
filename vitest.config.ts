import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: more workers than that only adds contention to the timing-sensitive e2e tests.
    maxWorkers: 2,
  },
});
