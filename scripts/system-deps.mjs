// Checks the system packages of scripts/system-packages.json before `npm start`, `npm test` and
// `npm run bench`; on Debian/Ubuntu installs the missing ones when it may (root, or sudo without a
// password), elsewhere or otherwise prints the one command that installs them.
// Plain Node ESM (Node ≥ 20, no dependencies): it runs before anything else of the project can.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const listFile = join(dirname(fileURLToPath(import.meta.url)), 'system-packages.json');

/** What each group is for, in the words printed to the user. */
const purpose = {
  app: 'the local engine (transcribing with no key and no network)',
  test: 'the test suite',
  bench: 'the benchmarks',
};

export function loadList(file = listFile) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The Debian package names of a group, with `@group` references expanded, each once, in order. */
export function packagesOf(list, group, within = []) {
  const entries = list.groups[group];
  if (!entries) throw new Error(`Unknown package group "${group}"; known: ${Object.keys(list.groups).join(', ')}.`);
  if (within.includes(group)) throw new Error(`Package group "${group}" includes itself.`);
  const out = new Set();
  for (const e of entries) {
    for (const n of e.startsWith('@') ? packagesOf(list, e.slice(1), [...within, group]) : [e]) out.add(n);
  }
  return [...out];
}

/** The real process boundary; tests hand in a fake with the same shape. */
export function realSystem() {
  return {
    platform: process.platform,
    uid: typeof process.getuid === 'function' ? process.getuid() : null,
    env: process.env,
    run(cmd, args, { inherit = false, env } = {}) {
      const r = spawnSync(cmd, args, {
        encoding: 'utf8',
        // apt-get's progress goes to the user's terminal (stderr, so stdout stays the test runners' own).
        stdio: inherit ? ['ignore', process.stderr, process.stderr] : ['ignore', 'pipe', 'pipe'],
        env: env ? { ...process.env, ...env } : process.env,
      });
      return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error?.code ?? null };
    },
    print(line) {
      process.stderr.write(`${line}\n`);
    },
  };
}

/** Which of `names` dpkg does not list as installed; null when this system has no dpkg (not Debian-like). */
export function dpkgMissing(sys, names) {
  // One call for all of them: `${db:Status-Abbrev}` is "ii " for an installed package. dpkg-query exits 1 when it
  // has never heard of some name, but still prints the others, so the exit code alone decides nothing.
  const r = sys.run('dpkg-query', ['-W', '-f=${Package}\\t${db:Status-Abbrev}\\n', ...names]);
  if (r.error) return null;
  const installed = new Set();
  for (const line of r.stdout.split('\n')) {
    const [pkg, status] = line.split('\t');
    if (pkg && status?.startsWith('ii')) installed.add(pkg.split(':')[0]);
  }
  return names.filter((n) => !installed.has(n));
}

/** Packages whose probe command is not on PATH (macOS, Windows, non-Debian Linux). */
function commandsMissing(sys, list, names) {
  const probed = names.filter((n) => list.packages[n]?.command);
  if (probed.length === 0) return [];
  const cmds = probed.map((n) => list.packages[n].command);
  let found;
  if (sys.platform === 'win32') {
    // `where` prints one path per command it finds; a command it misses prints nothing.
    const r = sys.run('where', cmds);
    const bases = r.stdout.split(/\r?\n/).map((p) =>
      p
        .split('\\')
        .pop()
        ?.replace(/\.(exe|cmd|bat)$/i, '')
        .toLowerCase(),
    );
    found = new Set(cmds.filter((c) => bases.includes(c.toLowerCase())));
  } else {
    const r = sys.run('sh', ['-c', 'for c in "$@"; do command -v "$c" >/dev/null 2>&1 && echo "$c"; done', 'sh', ...cmds]);
    found = new Set(r.stdout.split('\n').filter(Boolean));
  }
  return probed.filter((n) => !found.has(list.packages[n].command));
}

/** On macOS with Homebrew: the packages whose formula or cask is not installed; null without Homebrew. */
function brewMissing(sys, list, names) {
  const withBrew = names.filter((n) => list.packages[n]?.brew);
  const formulae = [...new Set(withBrew.map((n) => list.packages[n].brew).filter((b) => !b.startsWith('--cask ')))];
  const casks = [
    ...new Set(
      withBrew
        .map((n) => list.packages[n].brew)
        .filter((b) => b.startsWith('--cask '))
        .map((b) => b.slice(7)),
    ),
  ];
  // `brew list --versions A B` prints one line per installed one ("ffmpeg 7.1"), and nothing for the rest.
  const listed = new Set();
  for (const [flag, items] of [
    ['--formula', formulae],
    ['--cask', casks],
  ]) {
    if (!items.length) continue;
    const r = sys.run('brew', ['list', flag, '--versions', ...items]);
    if (r.error) return null;
    for (const line of r.stdout.split('\n')) if (line.trim()) listed.add(line.split(' ')[0]);
  }
  return withBrew.filter((n) => !listed.has(list.packages[n].brew.replace(/^--cask /, '')));
}

function describe(list, names) {
  return names.map((n) => `  ${n}: ${list.packages[n]?.why ?? ''}`).join('\n');
}

export function aptCommandLine(missing) {
  return `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`;
}

/** The one line that installs `names` with Homebrew, or null when none of them has a formula. */
export function brewCommandLine(list, names) {
  const formulae = [];
  const casks = [];
  for (const n of names) {
    const b = list.packages[n]?.brew;
    if (!b) continue;
    if (b.startsWith('--cask ')) casks.push(b.slice(7));
    else formulae.push(b);
  }
  const parts = [];
  if (formulae.length) parts.push(`brew install ${[...new Set(formulae)].join(' ')}`);
  if (casks.length) parts.push(`brew install --cask ${[...new Set(casks)].join(' ')}`);
  return parts.length ? parts.join(' && ') : null;
}

/** The one line that installs `names` with winget, or null when none of them has a winget package. */
export function wingetCommandLine(list, names) {
  const ids = [...new Set(names.map((n) => list.packages[n]?.winget).filter(Boolean))];
  return ids.length ? ids.map((id) => `winget install -e --id ${id}`).join(' && ') : null;
}

/**
 * How missing Debian packages can be installed here: 'root', 'sudo' (sudo -n works with no password),
 * or why not: 'sudo-password' (sudo wants one), 'no-sudo' (not root, no sudo), 'disabled' (VERBATIM_NO_INSTALL=1).
 */
export function installRoute(sys) {
  if (sys.env.VERBATIM_NO_INSTALL === '1') return 'disabled';
  if (sys.uid === 0) return 'root';
  const r = sys.run('sudo', ['-n', 'true']);
  // Any spawn error means no runnable sudo: ENOENT, or EACCES when PATH has a folder this user may not search.
  if (r.error) return 'no-sudo';
  return r.status === 0 ? 'sudo' : 'sudo-password';
}

/** Why nothing was installed, and the one line that installs `missing`, for each route that cannot. */
function manualInstall(route, missing) {
  const pkgs = missing.join(' ');
  if (route === 'no-sudo') {
    return `Installing needs root, and there is no sudo here. Run this once as root:\n  apt-get update && apt-get install -y --no-install-recommends ${pkgs}`;
  }
  const reason =
    route === 'disabled'
      ? 'VERBATIM_NO_INSTALL=1 is set, so nothing is installed automatically.'
      : 'Installing needs root, and sudo asks for a password, so Verbatim does not install them itself.';
  return `${reason} Run this once:\n  ${aptCommandLine(missing)}`;
}

function aptInstall(sys, route, missing) {
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  // sudo resets the environment; it accepts VAR=value before the command instead.
  const run = (args) =>
    route === 'root'
      ? sys.run('apt-get', args, { inherit: true, env })
      : sys.run('sudo', ['-n', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args], { inherit: true });
  // Lists first, every time we install: a fresh container has none ("Unable to locate package") and an old
  // machine's may name versions the mirror no longer has (404). Installing is rare (first run), so the few
  // seconds are cheap next to a failed first run.
  // A fresh Ubuntu often runs unattended-upgrades at first boot: wait for its lock instead of failing at once.
  const wait = ['-o', 'DPkg::Lock::Timeout=120'];
  const update = run([...wait, 'update']);
  if (update.status !== 0) sys.print('apt-get update failed; trying the install with the package lists already here.');
  run([...wait, 'install', '-y', '--no-install-recommends', ...missing]);
}

/**
 * Checks (and where it may, installs) the packages of `group`. `strict` (npm test, bench): what is
 * still missing afterwards is an error the caller stops on; otherwise (npm start) a note, and the app goes on.
 * Returns { ok, missing, installed }.
 */
export function ensureSystemPackages(group, { strict = false } = {}, sys = realSystem(), list = loadList()) {
  const names = packagesOf(list, group);
  const why = purpose[group] ?? group;
  const missing = sys.platform === 'linux' ? dpkgMissing(sys, names) : null;

  if (missing === null) return checkElsewhere(sys, list, group, names, strict);
  if (missing.length === 0) return { ok: true, missing: [], installed: [] };

  sys.print(`Verbatim: for ${why}, ${missing.length === 1 ? 'this system package is' : 'these system packages are'} missing:\n${describe(list, missing)}`);
  const route = installRoute(sys);
  if (route === 'root' || route === 'sudo') {
    sys.print(`Installing ${missing.join(' ')} with apt-get${route === 'sudo' ? ' (through sudo, which needs no password here)' : ' (running as root)'}…`);
    aptInstall(sys, route, missing);
    const still = dpkgMissing(sys, names) ?? missing;
    const installed = missing.filter((n) => !still.includes(n));
    if (still.length === 0) {
      sys.print(`Installed ${installed.join(' ')}.`);
      return { ok: true, missing: [], installed };
    }
    const line = route === 'root' ? `apt-get update && apt-get install -y --no-install-recommends ${still.join(' ')}` : aptCommandLine(still);
    sys.print(`apt-get could not install ${still.join(' ')} (its messages are above). Fix that, or install them yourself with:\n  ${line}`);
    return finish(sys, still, strict, installed, group);
  }
  sys.print(manualInstall(route, missing));
  return finish(sys, missing, strict, [], group);
}

function finish(sys, missing, strict, installed, group) {
  if (strict)
    sys.print(
      `Stopping: ${purpose[group] ?? group} cannot run without ${missing.join(', ')}. Install ${missing.length === 1 ? 'it' : 'them'}, then run the same command again.`,
    );
  else if (group === 'app') sys.print('Verbatim starts anyway; until then the local engine cannot transcribe, and the status bar says what is missing.');
  else sys.print(`Going on without ${missing.join(', ')}.`);
  return { ok: !strict, missing, installed };
}

/** macOS, Windows and Linux without dpkg: find what is missing by its command and print the install line; never install. */
function checkElsewhere(sys, list, group, names, strict) {
  const brewed = sys.platform === 'darwin' ? brewMissing(sys, list, names) : null;
  const missing = brewed ?? commandsMissing(sys, list, names);
  // Packages with no command (or formula) to look for cannot be checked here; they are named only when something else is missing.
  const unchecked = brewed ? [] : names.filter((n) => !list.packages[n]?.command);
  if (missing.length === 0) return { ok: true, missing: [], installed: [] };
  const why = purpose[group] ?? group;
  sys.print(`Verbatim: for ${why}, ${missing.length === 1 ? 'this program is' : 'these programs are'} missing:\n${describe(list, missing)}`);
  const needed = [...missing, ...unchecked];
  if (sys.platform === 'darwin') {
    const line = brewCommandLine(list, needed);
    if (line) sys.print(`Install them with Homebrew (https://brew.sh):\n  ${line}`);
  } else if (sys.platform === 'win32') {
    const line = wingetCommandLine(list, needed);
    if (line) sys.print(`Install them with winget:\n  ${line}`);
    const none = needed.filter((n) => !list.packages[n]?.winget);
    if (none.length)
      sys.print(`These have no winget package: ${none.join(', ')}. The local engine runs in WSL (Debian or Ubuntu), where \`npm start\` installs them.`);
  } else {
    sys.print(`Install the equivalents of these Debian packages with your system's package manager:\n  ${needed.join(' ')}`);
  }
  return finish(sys, missing, strict, [], group);
}

// CLI: `node scripts/system-deps.mjs test|bench|app [--lenient]`; exits 1 when a strict check fails.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const group = process.argv[2] ?? 'test';
  const strict = !process.argv.includes('--lenient');
  const started = process.hrtime.bigint();
  const result = ensureSystemPackages(group, { strict });
  if (process.env.VERBATIM_TIME_SYSTEM_CHECK === '1') {
    process.stderr.write(`system check (${group}) took ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms\n`);
  }
  if (!result.ok) process.exit(1);
}
