// Types for scripts/build-host.mjs (imported by tests).
import type { Plugin } from 'esbuild';

/** The newest modification time of any file below `dir` (ms). */
export function newest(dir: string): number;
/** Builds out/host when a source is newer than it (or `force`); answers whether it built. */
export function ensureHost(opts?: { force?: boolean }): Promise<boolean>;
/** esbuild plugin: zod's `locales` namespace with English only. */
export const zodEnglishOnly: Plugin;
