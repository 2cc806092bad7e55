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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
