import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most integration tests wait on processes, sockets and timers rather than the CPU, so more
    // files than cores run at once (vitest's default is cores − 1: one file at a time on 2 cores).
    maxWorkers: 3,
    reporters: ['default'],
  },
});
