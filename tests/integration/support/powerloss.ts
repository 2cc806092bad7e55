/**
 * What the power-loss tests share: host mode as a real child process on one
 * data folder, spoken to over its bridge; a seeded random source (the seed is
 * printed, so a failing run can be replayed with POWERLOSS_SEED); waiting on
 * a bridge event as it arrives; and SIGKILL, waited for.
 */
import type { ChildProcess } from 'node:child_process';
import { openBridge, type BridgeClient } from './bridge';
import { launchHost, type Child } from './processes';

export interface RunningHost {
  host: Child & { token: string; url: string };
  bridge: BridgeClient;
}

/** Host mode on `<dir>/data` (the same folder after every restart), its bridge open. */
export async function startHost(dir: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<RunningHost> {
  const host = await launchHost(dir, env, args);
  try {
    return { host, bridge: await openBridge(host.port, host.token) };
  } catch (e) {
    // 503: its services did not start; what it printed says why.
    await host.stop();
    throw new Error(`host mode's bridge did not open (${e instanceof Error ? e.message : String(e)}): ${host.stderr()}`, { cause: e });
  }
}

/** A bridge call that fails with host mode's stderr when the process exits before answering (the plain call would wait forever). */
export function call<T = Record<string, unknown>>(running: RunningHost, channel: string, input?: unknown): Promise<T> {
  const { proc } = running.host;
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.reject(new Error(`host mode has exited: ${running.host.stderr()}`));
  return new Promise<T>((resolve, reject) => {
    const onExit = () => reject(new Error(`host mode exited during ${channel}: ${running.host.stderr()}`));
    proc.once('exit', onExit);
    running.bridge.call<T>(channel, input).then(
      (v) => (proc.off('exit', onExit), resolve(v)),
      (e: unknown) => (proc.off('exit', onExit), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}

/** SIGKILL: no handler runs, nothing is flushed or closed; resolves once the process is gone. */
export async function killHard(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

/** A small seeded generator (mulberry32): the kill points of a run can be replayed. */
export function seededRandom(label: string): { int(min: number, max: number): number; seed: number } {
  const seed = Number(process.env.POWERLOSS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`${label}: POWERLOSS_SEED=${seed}`);
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

/**
 * Resolves with the first event on the bridge (already received or still to
 * come) that `match` accepts; rejects when the host exits first, or after
 * `ms` as a last resort so a broken run fails instead of hanging.
 */
export function bridgeEvent(
  running: RunningHost,
  match: (e: { event: string; payload: Record<string, unknown> }) => boolean,
  ms = 60_000,
): Promise<{ event: string; payload: Record<string, unknown> }> {
  const seen = running.bridge.events.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const onMessage = (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { event?: string; payload?: Record<string, unknown> };
      if (typeof m.event !== 'string') return;
      const e = { event: m.event, payload: m.payload ?? {} };
      if (!match(e)) return;
      done();
      resolve(e);
    };
    const onExit = () => (done(), reject(new Error(`host mode exited while waiting: ${running.host.stderr()}`)));
    const timer = setTimeout(() => (done(), reject(new Error('no such event came'))), ms);
    const done = () => {
      clearTimeout(timer);
      running.bridge.ws.off('message', onMessage);
      running.host.proc.off('exit', onExit);
    };
    running.bridge.ws.on('message', onMessage);
    running.host.proc.once('exit', onExit);
  });
}
