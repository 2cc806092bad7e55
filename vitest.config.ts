import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit files that must start in a fresh worker (see the `unit` project below).
const UNIT_ISOLATED = [
  // Checks that zod is made jitless before main's schemas are built; zod's setting lives in the worker's copy of
  // zod (node_modules, not reset between files), so after another file has loaded main it would pass on any order.
  'tests/unit/main/zod-jitless.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    // One file per core (Vitest's default leaves one core free): most integration files spend their time waiting on
    // child processes (the engine, native workers, ffmpeg), and their bounds count CPU time, not wall time.
    maxWorkers: availableParallelism(),
    // Guards against a hang, never a measure: an SDK transcription through the engine took over 30 s (the old
    // limit) beside other work on a 2-core machine. A test that needs longer says so itself.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // scripts/vitest-times.mjs records each file's time for npm test's table (only when npm test asks).
    reporters: ['default', './scripts/vitest-times.mjs'],
    projects: [
      {
        // Pure logic: the files share a worker, one after another (isolate: false), instead of a fresh process each
        // (~130 ms of start-up and imports per file). Vitest restores mocks between files but keeps loaded modules,
        // so a file here must not depend on a module's first load or leave process-wide state changed.
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: UNIT_ISOLATED, isolate: false },
      },
      {
        // Integration files start engines, servers and native workers, set process-wide state, and keep their own process.
        extends: true,
        test: { name: 'isolated', include: ['tests/integration/**/*.test.ts', ...UNIT_ISOLATED] },
      },
    ],
  },
});
