/**
 * The system-package check of `npm start`/`npm test`/`npm run bench`: what it decides (install as
 * root, through sudo, or print the command; brew/winget elsewhere), with every command it runs faked
 * at the process boundary and recorded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureSystemPackages, loadList, packagesOf, type RunResult, type System } from '../../../scripts/system-deps.mjs';

const root = join(import.meta.dirname, '../../..');
const list = loadList();
const testPackages = packagesOf(list, 'test');

interface Call {
  cmd: string;
  args: string[];
  env?: Record<string, string>;
}

interface FakeOptions {
  platform?: string;
  uid?: number | null;
  env?: Record<string, string>;
  /** Debian packages dpkg lists as installed; null: there is no dpkg here. */
  installed?: Set<string> | null;
  /** What `sudo -n true` does: 'ok', 'password' (exit 1), 'absent' (ENOENT) or 'unsearchable' (EACCES: a PATH folder this user may not read). */
  sudo?: 'ok' | 'password' | 'absent' | 'unsearchable';
  /** apt-get install succeeds (and the packages then show as installed). */
  aptWorks?: boolean;
  /** Commands on PATH (macOS/Windows/other Linux probes). */
  onPath?: string[];
  /** Installed Homebrew formulae and casks; null: no Homebrew. */
  brew?: Set<string> | null;
}

function fakeSystem(o: FakeOptions = {}) {
  const calls: Call[] = [];
  const printed: string[] = [];
  const installed = o.installed === undefined ? new Set(testPackages) : o.installed;
  const ok = (stdout = ''): RunResult => ({ status: 0, stdout, stderr: '', error: null });
  const fail = (status = 1, stderr = ''): RunResult => ({ status, stdout: '', stderr, error: null });
  const enoent: RunResult = { status: null, stdout: '', stderr: '', error: 'ENOENT' };
  const apt = (all: string[]): RunResult => {
    // Every apt-get call waits for the dpkg lock (unattended-upgrades on a fresh machine) rather than failing.
    expect(all.slice(0, 2)).toEqual(['-o', 'DPkg::Lock::Timeout=120']);
    const args = all.slice(2);
    if (args[0] === 'update') return ok();
    if (args[0] === 'install' && o.aptWorks !== false) {
      for (const p of args.filter((a) => !a.startsWith('-') && a !== 'install')) installed?.add(p);
      return ok();
    }
    return fail(100, 'E: Unable to locate package');
  };
  const sys: System = {
    platform: o.platform ?? 'linux',
    uid: o.uid === undefined ? 1000 : o.uid,
    env: o.env ?? {},
    print: (line) => printed.push(line),
    run(cmd, args, opts) {
      calls.push({ cmd, args, ...(opts?.env ? { env: opts.env } : {}) });
      switch (cmd) {
        case 'dpkg-query': {
          if (!installed) return enoent;
          const names = args.slice(2);
          const lines = names.filter((n) => installed.has(n)).map((n) => `${n}\tii `);
          // dpkg knows removed packages as "un"/"rc", and exits 1 when some name is not installed.
          lines.push(...names.filter((n) => !installed.has(n)).map((n) => `${n}\trc `));
          return { ...ok(`${lines.join('\n')}\n`), status: names.every((n) => installed.has(n)) ? 0 : 1 };
        }
        case 'sudo': {
          if (o.sudo === 'absent' || o.sudo === undefined) return enoent;
          if (o.sudo === 'unsearchable') return { ...enoent, error: 'EACCES' };
          if (o.sudo === 'password') return fail(1, 'sudo: a password is required');
          if (args[1] === 'true') return ok();
          // sudo -n DEBIAN_FRONTEND=noninteractive apt-get ...
          expect(args.slice(0, 3)).toEqual(['-n', 'DEBIAN_FRONTEND=noninteractive', 'apt-get']);
          return apt(args.slice(3));
        }
        case 'apt-get':
          return apt(args);
        case 'sh':
          return ok(
            `${args
              .slice(3)
              .filter((c) => o.onPath?.includes(c))
              .join('\n')}\n`,
          );
        case 'where':
          return ok(
            args
              .filter((c) => o.onPath?.includes(c))
              .map((c) => `C:\\Tools\\${c}.exe`)
              .join('\r\n'),
          );
        case 'brew': {
          if (!o.brew) return enoent;
          const items = args.slice(3);
          return ok(
            items
              .filter((i) => o.brew?.has(i))
              .map((i) => `${i} 1.0`)
              .join('\n'),
          );
        }
        default:
          throw new Error(`unexpected command ${cmd}`);
      }
    },
  };
  return { sys, calls, printed, text: () => printed.join('\n') };
}

const without = (...names: string[]) => new Set(testPackages.filter((n) => !names.includes(n)));

describe('the package list', () => {
  it('has one entry, with a reason, for every package of every group, and test includes app, bench includes test', () => {
    for (const group of Object.keys(list.groups)) {
      for (const name of packagesOf(list, group)) expect(list.packages[name]?.why, name).toBeTruthy();
    }
    expect(packagesOf(list, 'app')).toEqual(['ffmpeg', 'pocketsphinx', 'pocketsphinx-en-us', 'libpocketsphinx3']);
    expect(testPackages).toEqual(expect.arrayContaining([...packagesOf(list, 'app'), 'chromium', 'flite', 'sox']));
    expect(packagesOf(list, 'bench')).toEqual(expect.arrayContaining([...testPackages, 'festival']));
  });

  it('is the only list: CI runs npm ci and the README test command, with no packages of its own', () => {
    const ci = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(ci).not.toMatch(/apt-get|ffmpeg|chromium|flite/);
    expect(ci).toMatch(/npm ci/);
    // Exactly the README's command (its exit status kept to print the total time first).
    expect(ci).toMatch(/^npm test( \|\| status=\$\?)?$/m);
  });
});

describe('on Debian or Ubuntu', () => {
  it('runs a single dpkg-query and nothing else when every package is there', () => {
    const f = fakeSystem({ uid: 0 });
    expect(ensureSystemPackages('test', { strict: true }, f.sys, list)).toEqual({ ok: true, missing: [], installed: [] });
    expect(f.calls.map((c) => c.cmd)).toEqual(['dpkg-query']);
    expect(f.printed).toEqual([]);
  });

  it('installs what is missing with apt-get as root, updating the lists first, and says what and why', () => {
    const f = fakeSystem({ uid: 0, installed: without('flite', 'sox') });
    const r = ensureSystemPackages('test', { strict: true }, f.sys, list);
    expect(r).toEqual({ ok: true, missing: [], installed: ['flite', 'sox'] });
    const apt = f.calls.filter((c) => c.cmd === 'apt-get');
    const lock = ['-o', 'DPkg::Lock::Timeout=120'];
    expect(apt.map((c) => c.args)).toEqual([
      [...lock, 'update'],
      [...lock, 'install', '-y', '--no-install-recommends', 'flite', 'sox'],
    ]);
    expect(apt[1]?.env).toEqual({ DEBIAN_FRONTEND: 'noninteractive' });
    expect(f.calls.some((c) => c.cmd === 'sudo')).toBe(false);
    expect(f.text()).toContain('flite: speaks the tests');
    expect(f.text()).toContain('Installing flite sox with apt-get (running as root)');
    expect(f.text()).toContain('Installed flite sox.');
  });

  it('installs through sudo -n when sudo needs no password', () => {
    const f = fakeSystem({ uid: 1000, sudo: 'ok', installed: without('ffmpeg') });
    const r = ensureSystemPackages('app', {}, f.sys, list);
    expect(r).toEqual({ ok: true, missing: [], installed: ['ffmpeg'] });
    expect(f.calls.filter((c) => c.cmd === 'sudo').map((c) => c.args)).toEqual([
      ['-n', 'true'],
      ['-n', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-o', 'DPkg::Lock::Timeout=120', 'update'],
      ['-n', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-o', 'DPkg::Lock::Timeout=120', 'install', '-y', '--no-install-recommends', 'ffmpeg'],
    ]);
    expect(f.text()).toContain('through sudo');
  });

  it('for npm test, stops with the exact command when sudo asks for a password', () => {
    const f = fakeSystem({ uid: 1000, sudo: 'password', installed: without('chromium', 'flite') });
    const r = ensureSystemPackages('test', { strict: true }, f.sys, list);
    expect(r).toEqual({ ok: false, missing: ['chromium', 'flite'], installed: [] });
    expect(f.calls.map((c) => c.cmd)).toEqual(['dpkg-query', 'sudo']);
    expect(f.printed).toContain(
      'Installing needs root, and sudo asks for a password, so Verbatim does not install them itself. Run this once:\n  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium flite',
    );
    expect(f.text()).toContain('Stopping: the test suite cannot run without chromium, flite. Install them, then run the same command again.');
  });

  it('for npm start, prints the command and lets the app go on when there is no sudo at all', () => {
    const f = fakeSystem({ uid: 1000, sudo: 'absent', installed: without('pocketsphinx-en-us') });
    const r = ensureSystemPackages('app', { strict: false }, f.sys, list);
    expect(r).toEqual({ ok: true, missing: ['pocketsphinx-en-us'], installed: [] });
    expect(f.calls.some((c) => c.cmd === 'apt-get')).toBe(false);
    expect(f.printed).toContain(
      'Installing needs root, and there is no sudo here. Run this once as root:\n  apt-get update && apt-get install -y --no-install-recommends pocketsphinx-en-us',
    );
    expect(f.text()).toContain('Verbatim starts anyway');
  });

  it('treats a sudo that cannot be run (EACCES from PATH) as no sudo, and names the root command', () => {
    const f = fakeSystem({ uid: 65534, sudo: 'unsearchable', installed: without('xvfb') });
    expect(ensureSystemPackages('test', { strict: true }, f.sys, list).ok).toBe(false);
    expect(f.text()).toContain('Run this once as root:\n  apt-get update && apt-get install -y --no-install-recommends xvfb');
  });

  it('says what apt-get could not install and stops npm test when the install fails', () => {
    const f = fakeSystem({ uid: 0, aptWorks: false, installed: without('sox') });
    const r = ensureSystemPackages('test', { strict: true }, f.sys, list);
    expect(r).toEqual({ ok: false, missing: ['sox'], installed: [] });
    expect(f.text()).toContain('apt-get could not install sox');
    // As root, the line to run has no sudo in it.
    expect(f.text()).toContain('yourself with:\n  apt-get update && apt-get install -y --no-install-recommends sox');
  });

  it('installs nothing, even as root, with VERBATIM_NO_INSTALL=1', () => {
    const f = fakeSystem({ uid: 0, env: { VERBATIM_NO_INSTALL: '1' }, installed: without('xvfb') });
    const r = ensureSystemPackages('test', { strict: true }, f.sys, list);
    expect(r.ok).toBe(false);
    expect(f.calls.map((c) => c.cmd)).toEqual(['dpkg-query']);
    expect(f.text()).toContain('VERBATIM_NO_INSTALL=1 is set');
  });
});

describe('on other systems it prints the install line and never installs', () => {
  it('macOS: checks Homebrew and prints one brew line for what is missing', () => {
    const f = fakeSystem({ platform: 'darwin', uid: 501, installed: null, brew: new Set(['ffmpeg']) });
    const r = ensureSystemPackages('app', { strict: false }, f.sys, list);
    expect(r).toEqual({ ok: true, missing: ['pocketsphinx', 'pocketsphinx-en-us', 'libpocketsphinx3'], installed: [] });
    expect(f.text()).toContain('brew install cmu-pocketsphinx');
    expect(f.calls.every((c) => c.cmd === 'brew')).toBe(true);
  });

  it('macOS: the test group adds casks to the same line, and stops npm test', () => {
    const f = fakeSystem({
      platform: 'darwin',
      uid: 501,
      installed: null,
      brew: new Set(['ffmpeg', 'cmu-pocketsphinx', 'flite', 'openssl@3', 'curl', 'ca-certificates']),
    });
    const r = ensureSystemPackages('test', { strict: true }, f.sys, list);
    expect(r.ok).toBe(false);
    expect(r.missing).toEqual(['chromium', 'sox']);
    expect(f.text()).toContain('brew install sox && brew install --cask chromium');
  });

  it('Windows: finds programs with where and prints winget lines, naming what winget lacks', () => {
    const f = fakeSystem({ platform: 'win32', uid: null, installed: null, onPath: [] });
    const r = ensureSystemPackages('app', { strict: false }, f.sys, list);
    expect(r.missing).toEqual(['ffmpeg']);
    expect(f.calls.map((c) => c.cmd)).toEqual(['where']);
    expect(f.text()).toContain('winget install -e --id Gyan.FFmpeg');
    expect(f.text()).toContain('These have no winget package: pocketsphinx, pocketsphinx-en-us, libpocketsphinx3');
  });

  it('Linux without dpkg: probes the programs and names the Debian packages to find equivalents of', () => {
    const f = fakeSystem({ platform: 'linux', uid: 0, installed: null, onPath: ['ffmpeg', 'chromium', 'openssl', 'curl'] });
    const r = ensureSystemPackages('test', { strict: true }, f.sys, list);
    expect(r.missing).toEqual(['flite', 'sox', 'sphinxbase-utils', 'libarchive-tools']);
    expect(f.calls.some((c) => c.cmd === 'apt-get' || c.cmd === 'sudo')).toBe(false);
    expect(f.text()).toContain("with your system's package manager");
  });

  it('a system with every probed program says nothing', () => {
    const f = fakeSystem({ platform: 'win32', uid: null, installed: null, onPath: ['ffmpeg'] });
    expect(ensureSystemPackages('app', { strict: true }, f.sys, list)).toEqual({ ok: true, missing: [], installed: [] });
    expect(f.printed).toEqual([]);
  });
});
