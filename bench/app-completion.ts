/**
 * Completion latency: from the service's `completed` to the library row being
 * written, with the webhook receiver (goal ≤ 300 ms median) and with polling
 * only (default backoff 0.5 → 5 s). `npx tsx bench/app-completion.ts [jobs]`
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createCore } from '../src/main/core';
import { createHostPlatform, ForkEngineLauncher } from '../src/main/platform/host';
import { RestClient } from '../src/main/services/client/rest';
import { note, startService } from './_app-support';
import { waitFinal } from '../tests/support/jobs';
import { call } from '../tests/support/router';
import { figure } from './_figure';

const n = Number(process.argv[2] ?? 8);
const probe = await startService();
const kind = probe.kind;
probe.stop();
const entry = kind === 'engine' ? resolve('src/engine/index.ts') : resolve('tests/unit/main/support/fake-engine-cli.ts');

const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-completion-'));
const audio = join(dir, 'hello.wav');
try {
  execFileSync('flite', ['-t', 'Hello world. This is a short recording for the benchmark.', '-o', audio]);
} catch {
  writeFileSync(audio, Buffer.alloc(64 * 1024, 1));
}

async function run(webhooks: boolean): Promise<number[]> {
  const platform = createHostPlatform({ dataDir: join(dir, webhooks ? 'hook' : 'poll'), version: 'bench', keyFile: join(dir, 'k') });
  platform.engine = new ForkEngineLauncher(entry);
  delete process.env.ASSEMBLYAI_API_KEY;
  process.env.FAKE_PROCESS_MS = '1200';
  const core = createCore(platform, () => true, { webhooks, log: () => undefined });
  const h = await core.engine.ensure();
  const rest = new RestClient(h.url, h.key);
  const lat: number[] = [];
  for (let i = 0; i < n; i++) {
    const { jobs } = await call(core.router, 'jobs.addFiles', { files: [{ kind: 'path', path: audio }] });
    const job = await waitFinal(core.jobs, jobs[0]!.id, 120_000);
    if (job.status !== 'completed') throw new Error(`job ${job.status}: ${job.error?.message}`);
    const row = { completed_at: core.library.recordings.item(job.recordingId).completedAt ?? '' };
    const page = await rest.list({ limit: 20 });
    const remote = page.transcripts.find((t) => t.id === job.remoteId) as { completed?: string | null } | undefined;
    if (!remote?.completed) throw new Error('the service list has no completed time');
    const completedAt = Date.parse(remote.completed.endsWith('Z') ? remote.completed : `${remote.completed}Z`);
    lat.push(Date.parse(row.completed_at) - completedAt);
  }
  await core.dispose();
  return lat;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(0)} ms, min ${s[0]!.toFixed(0)}, max ${s[s.length - 1]!.toFixed(0)} (n=${s.length})`;
};

const hook = await run(true);
const poll = await run(false);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
figure('webhook, median', med(hook), 'ms');
figure('webhook, max', Math.max(...hook), 'ms');
figure('polling only, median', med(poll), 'ms');
console.log(`app-completion: service 'completed' → library row, ${note(kind)}`);
console.log(`  webhook + polling fallback: ${stats(hook)} (goal ≤ 300 ms median)`);
console.log(`  polling only (0.5 → 5 s backoff): ${stats(poll)}`);
console.log(
  `  ratio polling / webhook (medians): ${(poll.sort((a, b) => a - b)[Math.floor(poll.length / 2)]! / Math.max(1, hook.sort((a, b) => a - b)[Math.floor(hook.length / 2)]!)).toFixed(1)}×`,
);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
