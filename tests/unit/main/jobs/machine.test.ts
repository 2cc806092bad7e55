/**
 * The job state machine (services/jobs) driven against a scripted service
 * over real HTTP, with a real library (SQLite) and a fake clock: every
 * transition, cancel in each state, restart in each state, and 429/5xx storms
 * that never create a transcript twice.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canceled, type Clock } from '../../../../src/main/services/client/http';
import type { EngineHandle } from '../../../../src/main/services/local-engine';
import { Library } from '../../../../src/main/services/library/library';
import { JobService, nextStep, TRANSITIONS } from '../../../../src/main/services/jobs';
import { JOB_STATUSES, type JobStatus } from '../../../../src/shared/job-states';
import type { Job } from '../../../../src/shared/jobs';
import { defaultSettings, type Settings } from '../../../../src/shared/settings';
import { waitFinal } from '../../../support/jobs';
import { startScriptedService, type ScriptedService } from '../support/scripted-service';

let dir: string;
let svc: ScriptedService;
let library: Library;
let services: JobService[];
let statuses: Map<string, JobStatus[]>;
let sleeps: number[];
let settings: Settings;
let engineUrl: () => string;
let engineCurrent: () => EngineHandle | null;

/** Sleeps return at once (virtual time advances) but still yield to I/O. */
const clock = (): Clock => {
  let t = 1_000_000;
  return {
    now: () => t,
    random: () => 0.5,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw canceled();
      sleeps.push(ms);
      t += ms;
      await new Promise((r) => setImmediate(r));
      if (signal?.aborted) throw canceled();
    },
  };
};

function service(): JobService {
  const handle = () => ({ url: engineUrl(), key: 'engine-key' });
  const jobs = new JobService(
    library,
    { get: () => settings, webhookAuthHeaderValue: () => '' },
    { get: () => 'cloud-key', keyFor: () => 'cloud-key' },
    { ensure: async () => handle(), awaitRunning: async () => handle(), current: () => engineCurrent() },
    null,
    {
      changed: (id, job) => {
        if (job) statuses.set(id, [...(statuses.get(id) ?? []), job.status]);
      },
      progress: () => undefined,
    },
    { clock: clock(), pollStartMs: 500, pollCapMs: 5000, retry: { attempts: 6, baseMs: 500, capMs: 8000 } },
  );
  services.push(jobs);
  return jobs;
}

function file(name = 'talk.wav'): string {
  const p = join(dir, name);
  writeFileSync(p, Buffer.alloc(32 * 1024, 3));
  return p;
}

async function until<T>(fn: () => T | undefined | null | false, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const status = (id: string) => library.jobs.must(id).status;
const transcriptsMade = () => svc.transcripts.size;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-machine-'));
  svc = await startScriptedService();
  library = new Library(join(dir, 'data'));
  services = [];
  statuses = new Map();
  sleeps = [];
  settings = { ...defaultSettings, region: 'custom', customRestUrl: svc.url, uploadConcurrency: 2 };
  engineUrl = () => svc.url;
  engineCurrent = () => ({ url: svc.url, key: 'engine-key' });
});

afterEach(async () => {
  for (const s of services) await s.dispose();
  await svc.close();
  library.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Stop this "app" (state kept) and start another on the same library, as a restart does. */
async function restart(old: JobService): Promise<JobService> {
  await old.dispose();
  const next = service();
  next.resume();
  return next;
}

describe('the job states', () => {
  it('allows only the transitions of the diagram, and final states leave only by retry', () => {
    expect(TRANSITIONS.completed).toEqual([]);
    expect(TRANSITIONS.error).toEqual(['queued']);
    expect(TRANSITIONS.canceled).toEqual(['queued']);
    for (const s of JOB_STATUSES) if (s !== 'completed') expect(TRANSITIONS[s]).toContain(s === 'error' || s === 'canceled' ? 'queued' : 'canceled');
    expect(TRANSITIONS.processing).not.toContain('uploading');
    expect(TRANSITIONS.submitted).not.toContain('queued');
  });

  it('chooses the next step from the stored row alone', () => {
    const row = { status: 'queued' as JobStatus, remote_id: null as string | null, upload_url: null as string | null, source_kind: 'file' as const };
    expect(nextStep(row)).toBe('upload');
    expect(nextStep({ ...row, status: 'uploading', upload_url: 'http://x/v2/files/a' })).toBe('submit');
    expect(nextStep({ ...row, source_kind: 'url' })).toBe('submit');
    expect(nextStep({ ...row, status: 'submitted', remote_id: 'r' })).toBe('poll');
    expect(nextStep({ ...row, status: 'processing', remote_id: 'r' })).toBe('poll');
    for (const s of ['completed', 'error', 'canceled'] as const) expect(nextStep({ ...row, status: s, remote_id: 'r' })).toBe('done');
  });
});

describe('a job walks its states', () => {
  it('takes a file queued → uploading → submitted → processing → completed, writing each state first', async () => {
    const jobs = service();
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    const done = await waitFinal(jobs, job!.id, 10_000);
    expect(done).toMatchObject({ status: 'completed', attempts: 1, error: null });
    expect(statuses.get(job!.id)).toEqual(['queued', 'uploading', 'uploading', 'submitted', 'processing', 'completed']);
    expect({ uploads: svc.uploads, creates: svc.createRequests, made: transcriptsMade() }).toEqual({ uploads: 1, creates: 1, made: 1 });
    expect(library.transcripts.get(done.recordingId)).toMatchObject({ text: 'Hello world.', item: { status: 'completed', hasAudio: true } });
    // No list search before the first create of a fresh upload: nothing could exist yet.
    expect(svc.log.filter((l) => l === 'GET /v2/transcript')).toEqual([]);
    // Polls back off from 500 ms, jittered.
    expect(sleeps[0]).toBe(500);
  });

  it('takes a URL job queued → queued (attempt written) → submitted → completed without an upload', async () => {
    const jobs = service();
    svc.pending = [];
    const job = jobs.addUrl('https://example.org/a.mp3', 'A talk');
    const done = await waitFinal(jobs, job.id, 10_000);
    expect(done.status).toBe('completed');
    expect(statuses.get(job.id)).toEqual(['queued', 'queued', 'submitted', 'completed']);
    expect(svc.uploads).toBe(0);
  });

  it('ends in error with a typed reason when the service fails the transcript', async () => {
    const jobs = service();
    svc.script.get.push({ status: 200, body: { id: 'x', status: 'error', error: 'File does not appear to contain audio.' } });
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    const done = await waitFinal(jobs, job!.id, 10_000);
    expect(done).toMatchObject({ status: 'error', error: { code: 'unsupported_media', retryable: false } });
  });
});

describe('cancel in each state', () => {
  it('cancels while queued behind the upload slots: never uploads', async () => {
    settings = { ...settings, uploadConcurrency: 1 };
    const jobs = service();
    svc.script.upload.push('hang');
    const [first] = await jobs.addFiles([{ path: file('a.wav'), picked: false }]);
    await until(() => status(first!.id) === 'uploading', 'first upload');
    const [second] = await jobs.addFiles([{ path: file('b.wav'), picked: false }]);
    expect(status(second!.id)).toBe('queued');
    expect((await jobs.cancel(second!.id)).status).toBe('canceled');
    await jobs.cancel(first!.id);
    expect(svc.uploads).toBe(0);
    expect(svc.createRequests).toBe(0);
  });

  it('cancels while uploading: no create is sent', async () => {
    const jobs = service();
    svc.script.upload.push('hang');
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    await until(() => status(job!.id) === 'uploading', 'uploading');
    expect((await jobs.cancel(job!.id)).status).toBe('canceled');
    expect(svc.createRequests).toBe(0);
    expect(statuses.get(job!.id)?.at(-1)).toBe('canceled');
  });

  it('cancels a URL job whose create is in flight (queued with an attempt)', async () => {
    const jobs = service();
    svc.script.create.push('hang');
    const job = jobs.addUrl('https://example.org/a.mp3', 'A');
    await until(() => svc.createRequests === 1, 'the create');
    expect(status(job.id)).toBe('queued');
    expect((await jobs.cancel(job.id)).status).toBe('canceled');
  });

  for (const state of ['submitted', 'processing'] as const) {
    it(`cancels while ${state} and deletes the remote transcript`, async () => {
      const jobs = service();
      if (state === 'processing') svc.script.get.push({ status: 200, body: { id: 'p', status: 'processing' } });
      svc.script.get.push('hang');
      const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
      await until(() => status(job!.id) === state, state);
      const remoteId = library.jobs.must(job!.id).remote_id!;
      expect((await jobs.cancel(job!.id)).status).toBe('canceled');
      expect(svc.deletes).toEqual([remoteId]);
      await expect(jobs.cancel(job!.id)).rejects.toMatchObject({ code: 'conflict' });
    });
  }
});

describe('restart in each state', () => {
  it('restarts queued jobs: each uploads once after the restart and completes', async () => {
    settings = { ...settings, uploadConcurrency: 1 };
    let jobs = service();
    svc.script.upload.push('hang');
    const [a] = await jobs.addFiles([{ path: file('a.wav'), picked: false }]);
    await until(() => svc.log.includes('POST /v2/upload'), 'first upload');
    const [b] = await jobs.addFiles([{ path: file('b.wav'), picked: false }]);
    expect(status(b!.id)).toBe('queued');
    jobs = await restart(jobs);
    for (const j of [a!, b!]) expect((await waitFinal(jobs, j.id, 10_000)).status).toBe('completed');
    expect({ uploads: svc.uploads, made: transcriptsMade() }).toEqual({ uploads: 2, made: 2 });
    expect(library.jobs.get(b!.id).resumedAt).not.toBeNull();
  });

  it('restarts an upload cut off mid-way: uploads again, creates once', async () => {
    let jobs = service();
    svc.script.upload.push('hang');
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    await until(() => svc.log.includes('POST /v2/upload'), 'the upload');
    expect(status(job!.id)).toBe('uploading');
    jobs = await restart(jobs);
    expect((await waitFinal(jobs, job!.id, 10_000)).status).toBe('completed');
    expect({ uploads: svc.uploads, made: transcriptsMade() }).toEqual({ uploads: 1, made: 1 });
  });

  it('restarts after an upload whose create answer was lost: adopts the transcript instead of creating another', async () => {
    let jobs = service();
    svc.script.create.push('create-then-hang');
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    await until(() => svc.createRequests === 1, 'the create');
    expect(library.jobs.must(job!.id)).toMatchObject({ status: 'uploading', upload_url: expect.stringContaining('/v2/files/') });
    jobs = await restart(jobs);
    expect((await waitFinal(jobs, job!.id, 10_000)).status).toBe('completed');
    expect({ creates: svc.createRequests, made: transcriptsMade(), uploads: svc.uploads }).toEqual({ creates: 1, made: 1, uploads: 1 });
  });

  it('restarts a URL job whose create answer was lost: adopts it', async () => {
    let jobs = service();
    svc.script.create.push('create-then-hang');
    const job = jobs.addUrl('https://example.org/a.mp3', 'A');
    await until(() => svc.createRequests === 1, 'the create');
    jobs = await restart(jobs);
    expect((await waitFinal(jobs, job.id, 10_000)).status).toBe('completed');
    expect(transcriptsMade()).toBe(1);
  });

  for (const state of ['submitted', 'processing'] as const) {
    it(`restarts while ${state}: polls by the remote id, never submits again`, async () => {
      let jobs = service();
      if (state === 'processing') svc.script.get.push({ status: 200, body: { id: 'p', status: 'processing' } });
      svc.script.get.push('hang');
      const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
      await until(() => status(job!.id) === state, state);
      jobs = await restart(jobs);
      expect((await waitFinal(jobs, job!.id, 10_000)).status).toBe('completed');
      expect({ uploads: svc.uploads, creates: svc.createRequests }).toEqual({ uploads: 1, creates: 1 });
    });
  }

  it('leaves final jobs alone on restart', async () => {
    let jobs = service();
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    await waitFinal(jobs, job!.id, 10_000);
    const before = svc.log.length;
    await jobs.dispose();
    jobs = service();
    // resume() answers how many jobs it started again: none, so nothing can ask the service.
    expect(jobs.resume()).toBe(0);
    expect(svc.log.length).toBe(before);
    expect(jobs.get(job!.id).status).toBe('completed');
  });

  it('matches a local-engine upload by its file id after the engine moved to another port (no duplicate transcript)', async () => {
    settings = { ...settings, region: 'local' };
    // The engine of the first launch was on another port: the upload answer names it.
    svc.uploadOrigin = '127.0.0.1:1';
    engineCurrent = () => ({ url: 'http://127.0.0.1:1', key: 'engine-key' });
    let jobs = service();
    svc.script.create.push('create-then-hang');
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    await until(() => svc.createRequests === 1, 'the create');
    expect([...svc.transcripts.values()][0]!.audio_url).toMatch(/^http:\/\/127\.0\.0\.1:1\/v2\/files\//);
    // The restarted engine listens here now; the job's upload URL is rewritten to this port.
    engineCurrent = () => ({ url: svc.url, key: 'engine-key' });
    jobs = await restart(jobs);
    expect((await waitFinal(jobs, job!.id, 10_000)).status).toBe('completed');
    expect({ creates: svc.createRequests, made: transcriptsMade() }).toEqual({ creates: 1, made: 1 });
  });
});

describe('429 and 5xx storms', () => {
  it('waits out 429s as Retry-After says and creates exactly once', async () => {
    const jobs = service();
    for (let i = 0; i < 3; i++) svc.script.create.push({ status: 429, headers: { 'retry-after': '2' } });
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    expect((await waitFinal(jobs, job!.id, 10_000)).status).toBe('completed');
    expect({ creates: svc.createRequests, made: transcriptsMade() }).toEqual({ creates: 4, made: 1 });
    expect(sleeps.filter((ms) => ms >= 2000 && ms < 2300)).toHaveLength(3);
    // A 429 means "not created": no list search between them.
    expect(svc.log.filter((l) => l === 'GET /v2/transcript')).toEqual([]);
  });

  it('after 5xx answers to creates that did happen, finds the transcript instead of creating again', async () => {
    const jobs = service();
    svc.script.create.push('create-then-503', 'create-then-503');
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    const done = await waitFinal(jobs, job!.id, 10_000);
    expect(done.status).toBe('completed');
    expect({ creates: svc.createRequests, made: transcriptsMade() }).toEqual({ creates: 1, made: 1 });
  });

  it('rides out 5xx storms on upload, list and poll with backoff, and never duplicates', async () => {
    const jobs = service();
    svc.script.upload.push({ status: 503 }, { status: 502 });
    svc.script.create.push('create-then-503');
    svc.script.list.push({ status: 500 }, { status: 503 });
    svc.script.get.push({ status: 500 }, { status: 502 }, { status: 504 });
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    const done: Job = await waitFinal(jobs, job!.id, 10_000);
    expect(done.status).toBe('completed');
    expect({ uploads: svc.uploads, made: transcriptsMade() }).toEqual({ uploads: 1, made: 1 });
    // Exponential backoff: 500 ms × 2^(n-1), ±50% jitter (0.5 here gives the midpoint).
    expect(sleeps).toEqual(expect.arrayContaining([500, 1000]));
  });

  it('gives up after the policy attempts with a retryable error, and Retry runs it again to completion', async () => {
    const jobs = service();
    for (let i = 0; i < 6; i++) svc.script.upload.push({ status: 503 });
    const [job] = await jobs.addFiles([{ path: file(), picked: false }]);
    const failed = await waitFinal(jobs, job!.id, 10_000);
    expect(failed).toMatchObject({ status: 'error', error: { code: 'server_error_retryable', retryable: true } });
    jobs.retry(job!.id);
    expect((await waitFinal(jobs, job!.id, 10_000)).status).toBe('completed');
    expect(transcriptsMade()).toBe(1);
  });
});
