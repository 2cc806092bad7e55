/**
 * Playwright fixture: a fresh host-mode Verbatim per test, on a random port
 * with its own data folder, exactly as `npm run serve` starts it (the bundle in out/host).
 */
import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HOST_NODE_FLAGS } from '../../scripts/host-flags.mjs';

export const root = resolve(import.meta.dirname, '../..');

export interface HostApp {
  url: string;
  origin: string;
  dataDir: string;
  process: ChildProcess;
  restart(): Promise<void>;
}

/** `args`: more of the CLI's options (e.g. `--folder DIR`). */
export async function launchHost(dataDir: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  // The same build `npm run serve` runs (out/host, made by `npm run build:host` before the suite).
  const child = spawn(
    process.execPath,
    [
      ...(process.env.VERBATIM_HOST_PROF ? ['--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', process.env.VERBATIM_HOST_PROF] : []),
      // The flags `npm run serve` starts host mode with.
      ...HOST_NODE_FLAGS,
      join(root, 'out/host/cli.mjs'),
      '--port',
      '0',
      '--data',
      dataDir,
      // A renderer built elsewhere (VERBATIM_E2E_RENDERER=DIR): out/renderer may be mid-rebuild by another build on this machine.
      ...(process.env.VERBATIM_E2E_RENDERER ? ['--renderer', process.env.VERBATIM_E2E_RENDERER] : []),
      ...args,
    ],
    {
      cwd: root,
      env: { ...process.env, VERBATIM_KEY_DIR: join(dataDir, '..', 'keys'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    // A guard against a hang, not a measure: host mode starts in well under a second on an idle machine.
    const timer = setTimeout(() => rej(new Error(`host mode did not start in 120 s: ${stderr}`)), 120_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.once('exit', (code) => rej(new Error(`host mode exited with ${code}: ${stderr}`)));
  });
  return { url, child };
}

export async function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export const test = base.extend<{ host: HostApp; hostEnv: NodeJS.ProcessEnv }>({
  /** More environment for host mode (`test.use({ hostEnv: {...} })`), e.g. a test's shortened timings. */
  hostEnv: [{}, { option: true }],
  host: async ({ hostEnv }, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-'));
    const dataDir = join(dir, 'data');
    // Host mode reads and writes the user's files (backups among them) only inside the folders it was started with:
    // the tests' own folders lie under the system's temporary folder. The confinement tests start a host of their own.
    const folders = ['--folder', tmpdir()];
    let current = await launchHost(dataDir, hostEnv, folders);
    const app: HostApp = {
      url: current.url,
      origin: new URL(current.url).origin,
      dataDir,
      process: current.child,
      async restart() {
        await stopHost(current.child);
        current = await launchHost(dataDir, hostEnv, folders);
        app.url = current.url;
        app.origin = new URL(current.url).origin;
        app.process = current.child;
      },
    };
    await use(app);
    await stopHost(current.child);
    rmSync(dir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
