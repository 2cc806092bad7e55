// `npm start`: the desktop app where Electron's binary is installed; host mode
// (the same app in your browser) where it is not, e.g. with no route to GitHub.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHost } from './serve.mjs';
import { ensureSystemPackages } from './system-deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const pathFile = join(dirname(require.resolve('electron/package.json')), 'path.txt');
    if (!existsSync(pathFile)) return null;
    const bin = join(dirname(pathFile), 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

// electron 45's package has no postinstall step: fetch the binary on first start (GitHub), once.
function fetchElectron() {
  try {
    const installer = join(dirname(require.resolve('electron/package.json')), 'install.js');
    if (!existsSync(installer)) return null;
    process.stderr.write('Fetching the Electron binary (first start only)…\n');
    spawnSync(process.execPath, [installer], { cwd: root, stdio: 'ignore', timeout: 180_000 });
    return electronBinary();
  } catch {
    return null;
  }
}

// The local engine's packages first (installed where it may); the app opens either way and its status bar says what is missing.
ensureSystemPackages('app', { strict: false });

const electron = process.env.VERBATIM_HOST_MODE ? null : (electronBinary() ?? fetchElectron());
if (electron) {
  const build = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const child = spawn(electron, [root], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.stderr.write(
    'Electron is not installed here (its binary could not be downloaded), so Verbatim starts in host mode: open the link below in your browser.\n',
  );
  await runHost(process.argv.slice(2));
}
