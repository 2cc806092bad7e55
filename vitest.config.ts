import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
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
  },
});
