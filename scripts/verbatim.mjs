#!/usr/bin/env node
// `verbatim` (package.json's bin; `npx verbatim …` in a clone): the command line. Builds host mode's
// bundles (out/host) when they are missing or older than the sources, then runs out/host/verbatim-main.mjs
// in this process, with Node's compile cache on. The library's native module is built for the
// project's Node (the `node` devDependency): an older Node on the PATH hands over to it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);
const projectNode = join(root, 'node_modules', 'node', 'bin', 'node');
if (major < 22 && existsSync(projectNode) && process.execPath !== projectNode) {
  const r = spawnSync(projectNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const bundle = join(root, 'out', 'host', 'verbatim-main.mjs');
const stale = () =>
  (existsSync(bundle) ? statSync(bundle).mtimeMs : 0) <=
  Math.max(...['src/main', 'src/shared', 'src/engine'].map((d) => newest(join(root, d))), statSync(join(root, 'package.json')).mtimeMs);

/** Builds out/host once even when several `verbatim` start together (a lock folder; one older than 5 minutes is a crashed build's). */
async function build() {
  const lock = join(root, 'out', 'host-build.lock');
  mkdirSync(join(root, 'out'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!stale()) return;
    const { ensureHost } = await import('./build-host.mjs');
    await ensureHost({ force: true });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (existsSync(join(root, 'src', 'main')) && stale()) await build();
module.enableCompileCache?.();
await import(pathToFileURL(bundle).href);
