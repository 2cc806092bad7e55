/**
 * The app side killed for real (SIGKILL of the host-mode process) in the middle
 * of an upload and in the middle of polling: a new process on the same data
 * folder resumes the job and completes it, with one transcript on the service.
 * The contract is driven through the host-mode bridge, as the browser does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const fakeEngine = resolve('tests/unit/main/support/fake-engine-cli.ts');
let dir: string;
const procs: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-resume-'));
});
afterEach(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  procs.length = 0;
  rmSync(dir, { recursive: true, force: true });
});

interface App {
  proc: ChildProcess;
  port: number;
  token: string;
  ws: WebSocket;
  events: { event: string; payload: Record<string, unknown> }[];
  call(channel: string, input?: unknown): Promise<Record<string, unknown>>;
}

async function launch(env: Record<string, string> = {}): Promise<App> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main/host/cli.ts', '--port', '0', '--data', join(dir, 'data'), '--folder', dir], {
    env: { ...process.env, VERBATIM_ENGINE_ENTRY: fakeEngine, VERBATIM_KEY_DIR: join(dir, 'keys'), ASSEMBLYAI_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(proc);
  const url = await new Promise<string>((res, rej) => {
    const rl = createInterface({ input: proc.stdout! });
    rl.on('line', (l) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(l);
      if (m) res(m[1]!);
    });
    proc.once('exit', (c) => rej(new Error(`host exited ${c}`)));
  });
  const u = new URL(url);
  const token = u.searchParams.get('token')!;
  const ws = new WebSocket(`ws://127.0.0.1:${u.port}/bridge?token=${token}`);
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  const events: App['events'] = [];
  let next = 1;
  const pending = new Map<number, (m: Record<string, unknown>) => void>();
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as Record<string, unknown>;
    if (typeof m.id === 'number') pending.get(m.id)?.(m);
    else events.push(m as App['events'][number]);
  });
  return {
    proc,
    port: Number(u.port),
    token,
    ws,
    events,
    call(channel, input) {
      const id = next++;
      return new Promise((r) => {
        pending.set(id, r);
        ws.send(JSON.stringify({ id, channel, input }));
      });
    },
  };
}

async function until<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function kill(app: App): Promise<void> {
  const exited = new Promise((r) => app.proc.once('exit', r));
  app.proc.kill('SIGKILL');
  await exited;
}

function engineTranscripts(): number {
  const f = join(dir, 'data', 'engine', 'state.json');
  return Object.keys(JSON.parse(readFileSync(f, 'utf8')) as object).length;
}

async function jobStatus(app: App, id: string): Promise<string> {
  const r = (await app.call('jobs.list')) as { output: { jobs: { id: string; status: string }[] } };
  return r.output.jobs.find((j) => j.id === id)?.status ?? 'missing';
}

describe('host mode: the app killed mid-job resumes on restart', () => {
  it('resumes an upload that was cut off (browser upload via /upload + jobs.addFiles)', async () => {
    const size = 160 * 1024 * 1024;
    const file = join(dir, 'long.wav');
    writeFileSync(file, Buffer.alloc(size, 3));
    let app = await launch();
    const up = await fetch(`http://127.0.0.1:${app.port}/upload?token=${app.token}&name=${encodeURIComponent('long.wav')}`, {
      method: 'POST',
      body: readFileSync(file),
    });
    expect(up.status).toBe(200);
    const { uploadId } = (await up.json()) as { uploadId: string };
    const noToken = await fetch(`http://127.0.0.1:${app.port}/upload`, { method: 'POST', body: 'x' });
    expect(noToken.status).toBe(401);
    const addedAll = (await app.call('jobs.addFiles', { files: [{ kind: 'upload', uploadId, name: 'long.wav' }] })) as {
      output: { jobs: { id: string; recordingId: string }[] };
    };
    const added = { output: addedAll.output.jobs[0]! };
    const id = added.output.id;
    await until(() => app.events.some((e) => e.event === 'jobs.progress'));
    await kill(app);
    expect(await jobStatusFromDb(id)).toBe('uploading');

    app = await launch();
    await until(async () => (await jobStatus(app, id)) === 'completed', 60_000);
    const t = (await app.call('library.get', { id: added.output.recordingId })) as { output: { item: { hasAudio: boolean; status: string } } };
    // The job says it was picked up again after the restart (the queue shows "Resumed").
    const listed = (await app.call('jobs.list')) as { output: { jobs: { id: string; resumedAt: string | null }[] } };
    expect(listed.output.jobs.find((j) => j.id === id)?.resumedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(t.output.item).toMatchObject({ status: 'completed', hasAudio: true });
    expect(engineTranscripts()).toBe(1);
    expect(readdirSync(join(dir, 'data', 'uploads'))).toEqual([]);
    // The library's audio is served with Range support, behind the token.
    const media = (await app.call('library.mediaUrl', { id: added.output.recordingId })) as { output: { url: string } };
    const part = await fetch(`http://127.0.0.1:${app.port}${media.output.url}`, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    expect((await fetch(`http://127.0.0.1:${app.port}${media.output.url.replace(/token=[^&]+/, 'token=bad')}`)).status).toBe(401);
    await kill(app);
  });

  async function jobStatusFromDb(id: string): Promise<string> {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(dir, 'data', 'library.sqlite'), { readonly: true });
    const row = db.prepare('SELECT status FROM jobs WHERE id = ?').get(id) as { status: string };
    db.close();
    return row.status;
  }

  it('resumes polling by remote id without submitting twice', async () => {
    const file = join(dir, 'short.wav');
    writeFileSync(file, Buffer.alloc(50_000, 5));
    let app = await launch({ FAKE_PROCESS_MS: '3000' });
    const added = (await app.call('jobs.addFiles', { files: [{ kind: 'path', path: file }] })) as { output: { jobs: { id: string }[] } };
    const id = added.output.jobs[0]!.id;
    await until(() => app.events.some((e) => e.event === 'jobs.changed' && (e.payload.job as { status?: string } | null)?.status === 'submitted'));
    const engineUrl = await until(async () => {
      const s = (await app.call('engine.status')) as { output: { url: string | null } };
      return s.output.url;
    });
    await kill(app);
    // The engine must not outlive the app that started it.
    await until(
      async () =>
        fetch(`${engineUrl}/health`).then(
          () => false,
          () => true,
        ),
      5000,
    );

    app = await launch({ FAKE_PROCESS_MS: '3000' });
    await until(async () => (await jobStatus(app, id)) === 'completed', 30_000);
    expect(engineTranscripts()).toBe(1);
    await kill(app);
  });
});
