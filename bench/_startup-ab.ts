/**
 * Cold start of two (or more) host-mode builds, interleaved, on the same machine state: ui-startup's
 * method (spawn → the page shows "Connected" and "Your library", a fresh browser context each time),
 * with the builds taking turns so that a machine that speeds up or slows down meanwhile weighs on each
 * alike. ui-startup's own figures move ±10% between hours on a shared 2-core machine; a change worth a
 * few percent shows only this way. Not a benchmark (`npm run bench` skips files starting with _).
 *
 *   cp -r out/host /tmp/host-a   # the build to compare with (e.g. made at another commit)
 *   VARIANTS='old:/tmp/host-a:--min-semi-space-size=16;new:out/host:--min-semi-space-size=32' N=16 \
 *     npm exec -- tsx bench/_startup-ab.ts
 *
 * VARIANTS: `name:folder:node flags` separated by `;` (the folder holds cli.mjs and its chunks; the flags
 * go after host mode's own, scripts/host-flags.mjs, and V8 takes the last of a flag given twice).
 * N: starts of each (after one warm-up start each, not counted). The spawn is the tests' launchHost
 * (tests/e2e/host.ts) with another build folder and more flags.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { HOST_NODE_FLAGS } from '../scripts/host-flags.mjs';
import { launchBrowser, libraryShown, quantile, tempDataDir } from '../tests/e2e/bench-kit';

interface Variant {
  name: string;
  dir: string;
  flags: string[];
}

const variants: Variant[] = (process.env.VARIANTS ?? '')
  .split(';')
  .filter(Boolean)
  .map((v) => {
    const [name = '', dir = '', flags = ''] = v.split(':');
    return { name, dir: resolve(dir), flags: flags.split(' ').filter(Boolean) };
  });
const N = Number(process.env.N ?? 16);

async function coldStart(browser: Awaited<ReturnType<typeof launchBrowser>>, v: Variant): Promise<number> {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const shown = await libraryShown(page);
  const dataDir = tempDataDir('startup-ab');
  const t0 = performance.now();
  const child = spawn(process.execPath, [...HOST_NODE_FLAGS, ...v.flags, join(v.dir, 'cli.mjs'), '--port', '0', '--data', dataDir], {
    env: { ...process.env, VERBATIM_KEY_DIR: join(dataDir, '..', 'keys') },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/\S+)/.exec(out);
      if (m) res(m[1] as string);
    });
    child.once('exit', (code) => rej(new Error(`${v.name}: host mode exited with ${code}`)));
  });
  await page.goto(url);
  await page.getByTestId('connection').filter({ hasText: 'Connected' }).waitFor();
  await page.getByRole('heading', { level: 1, name: 'Your library' }).waitFor();
  const ms = (await shown.at) - t0;
  await ctx.close();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return ms;
}

async function main(): Promise<void> {
  if (variants.length < 2) throw new Error("Give two builds or more: VARIANTS='a:DIR:FLAGS;b:DIR:FLAGS'");
  const browser = await launchBrowser();
  const times = new Map(variants.map((v) => [v.name, [] as number[]]));
  try {
    for (const v of variants) await coldStart(browser, v);
    for (let i = 0; i < N; i++) for (const v of i % 2 ? [...variants].reverse() : variants) times.get(v.name)?.push(await coldStart(browser, v));
  } finally {
    await browser.close();
  }
  console.log(`cold start to interactive, ${N} starts of each, interleaved:`);
  for (const v of variants) {
    const t = times.get(v.name) ?? [];
    console.log(`  ${v.name.padEnd(12)} median ${quantile(t, 0.5).toFixed(0)} ms  (p25 ${quantile(t, 0.25).toFixed(0)}, p75 ${quantile(t, 0.75).toFixed(0)})`);
  }
}

void main();
