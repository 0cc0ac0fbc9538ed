import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker keeps its module cache from one file to the next: the suite imports src/ once per
    // worker instead of once per file (about a quarter of its CPU). Test files therefore must not
    // rely on fresh module state (restore what they change, as outbound.test.ts does), and never
    // use vi.mock (a module mocked for one file would stay mocked for the next).
    isolate: false,
    // Most integration tests wait on processes, sockets and timers rather than the CPU, so more
    // files than cores run at once (vitest's default is cores − 1: one file at a time on 2 cores).
    maxWorkers: 4,
    reporters: ['default'],
    // One project for the tests beside src/, the golden ones and the integration ones: each
    // project has its own transform cache and its own workers, so two projects transformed and
    // imported src/ twice (a quarter more CPU for the whole suite). `npm run test:unit` is the
    // same configuration with a file filter.
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Bundles the CLI once for the tests that start it as a process (test/helpers/cli.ts): about
    // a second of esbuild.
    globalSetup: ['test/global-setup.ts'],
    // Vite's transform of each source and test file, kept on disk from one run to the next (keyed
    // by the file's content, the config and vitest's version; a changed lockfile clears it): a
    // run transforms only what changed. About a third of vitest's own process's CPU
    // (docs/decisions/0041-fast-calm-suite.md). `rm -rf .test-dist` starts afresh.
    experimental: { fsModuleCache: true, fsModuleCachePath: '.test-dist/vitest-cache' },
    setupFiles: ['test/cpu-per-file.ts'],
  },
});
