// Host mode's entry (copied to out/host/cli.mjs by scripts/build-host.mjs): turns
// on Node's on-disk compile cache, then loads the bundle, so a start after the
// first reuses V8's compiled code for our bundle and its packages instead of
// compiling about 2 MB of JavaScript again (issue 29: host-mode cold start).
import module from 'node:module';

module.enableCompileCache?.();
await import('./cli-main.mjs');
