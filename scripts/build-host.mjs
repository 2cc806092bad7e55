// Builds host mode for plain Node: main's host entry and the local engine
// bundled into out/host (our code in one file each; packages stay in
// node_modules), so `npm run serve` starts without compiling TypeScript on the
// fly (about 200 ms instead of 450). Skips the work when out/host is newer
// than every source it is made from.
//
// Two things keep host mode's cold start short (issue 29):
// - cli-main is built with code splitting: src/main/host/cli.ts imports the services (zod's
//   schemas, SQLite, ws) dynamically, after the server listens, so they are chunks of their own
//   (out/host/chunks) that load while the browser fetches the page.
// - Node's built-ins are reached through require(), not `import`: Node makes an ES module facade
//   of a built-in by reading every export, which runs its lazy getters (node:http's loads undici,
//   node:tls's lists the root certificates), ~30 ms of a start for nothing we use.
// - zod is bundled (the other packages stay in node_modules): Node resolving and linking its
//   ~90 module files one by one took ~40 ms of every start; bundled it is one file.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'out', 'host');
const sources = ['src/main', 'src/shared', 'src/engine'].map((d) => join(root, d));

/** The newest modification time of any file below `dir` (ms). */
export function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** `require` for the bundles: what esbuild's require() of a built-in calls (see builtinsThroughRequire). */
const REQUIRE_BANNER = "import { createRequire as __verbatimCreateRequire } from 'node:module';\nconst require = __verbatimCreateRequire(import.meta.url);";

/** Every `import … from 'node:x'` becomes require('node:x') (no ES module facade, so no lazy getter runs). */
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.namespace === 'builtin' || args.path === 'node:module' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** Packages stay in node_modules (native addons, workers they start by path), except zod. */
const packagesButZodExternal = {
  name: 'packages-but-zod-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path === 'zod' || args.path.startsWith('zod/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * zod's `locales` namespace (its error messages in ~60 languages, ~360 KB: half of bundled zod) is left
 * out: main never sets a locale and answers in English (zod's schemas import English themselves), and
 * every start of host mode, the engine and the library worker read, compiled and ran the rest for nothing.
 * `z.locales` then holds English only.
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * A chunk made only of packages (bundled zod) loses its source map: Node with --enable-source-maps
 * parses each loaded file's map at load (zod's is 0.45 MB: ~8 ms of every start), and a stack
 * through a package is read in node_modules anyway. Our own chunks keep theirs.
 */
function dropVendorMaps(dir) {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.mjs'))) {
    const map = join(dir, `${name}.map`);
    if (!existsSync(map)) continue;
    const { sources } = JSON.parse(readFileSync(map, 'utf8'));
    if (!sources.length || !sources.every((s) => s.includes('node_modules/'))) continue;
    const file = join(dir, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
    rmSync(map);
  }
}

export async function ensureHost({ force = false } = {}) {
  const outputs = [
    'cli.mjs',
    'cli-main.mjs',
    'verbatim-main.mjs',
    'engine.mjs',
    'native-child.mjs',
    'llama-child.mjs',
    'library-worker.mjs',
    'engine-guard.mjs',
  ].map((f) => join(out, f));
  const built = outputs.every((f) => existsSync(f)) ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : 0;
  if (!force && built > Math.max(...sources.map(newest), statSync(join(root, 'package.json')).mtimeMs)) return false;
  mkdirSync(out, { recursive: true });
  const common = {
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    // Maps without the sources' text (stack traces still name src/…, which is beside out/): smaller maps
    // to read when a trace needs one (src/main/host/stack-maps.ts; Node's --enable-source-maps read each
    // loaded file's map at load, ~15 ms more of a start with the text).
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [builtinsThroughRequire, packagesButZodExternal, zodEnglishOnly],
    banner: { js: REQUIRE_BANNER },
  };
  // Host mode's entry and the chunks it loads after listening (old chunks go: their names carry a hash).
  rmSync(join(out, 'chunks'), { recursive: true, force: true });
  await build({
    ...common,
    // out/host/cli.mjs is src/main/host/entry.mjs: the compile cache first, then this bundle.
    // verbatim-main.mjs: the `verbatim` command line (src/main/cli; started by scripts/verbatim.mjs), sharing the chunks.
    entryPoints: { 'cli-main': join(root, 'src/main/host/cli.ts'), 'verbatim-main': join(root, 'src/main/cli/index.ts') },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
  dropVendorMaps(join(out, 'chunks'));
  await build({
    ...common,
    entryPoints: {
      engine: join(root, 'src/engine/index.ts'),
      // The engine forks it for native work that can crash (src/engine/native/child-host.ts).
      'native-child': join(root, 'src/engine/recognizer/sherpa/native-child.ts'),
      // The gateway forks it to run local GGUF chat models (src/engine/gateway/llama-host.ts).
      'llama-child': join(root, 'src/engine/gateway/llama-child.ts'),
      // The library's worker thread for heavy subtitle work (src/main/services/library/library-offload.ts).
      'library-worker': join(root, 'src/main/services/library/library-worker.ts'),
    },
  });
  copyFileSync(join(root, 'src/main/platform/host/engine-guard.mjs'), join(out, 'engine-guard.mjs'));
  copyFileSync(join(root, 'src/main/host/entry.mjs'), join(out, 'cli.mjs'));
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const made = await ensureHost({ force: process.argv.includes('--force') });
  if (made) process.stderr.write('Built host mode into out/host.\n');
}
