/**
 * The engine's data folder (issue 12.11, 12.12): private to its user
 * (folders 0700, files 0600, including SQLite's WAL files and uploads), and
 * reclaimed: partial uploads a kill -9 left behind, uploads no transcript
 * uses after 24 h, and empty or orphaned work folders are swept on start and
 * on a schedule, while everything a transcript still needs stays.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptParams } from '../../src/engine/store';
import { RETENTION_DEFAULTS, sweepDisk } from '../../src/engine/retention';
import { startEngine, type RunningEngine } from '../../src/engine/server';
import { serviceTime, Store } from '../../src/engine/store';
import { launchEngine } from './support/processes';

const KEY = 'k-retention';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'engine-retention-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mode = (p: string) => statSync(p).mode & 0o777;
const HOUR = 60 * 60_000;
const age = (p: string, ms: number) => utimesSync(p, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe('engine data is private to its user', () => {
  let engine: RunningEngine;
  const data = () => join(dir, 'private');
  beforeAll(async () => {
    // A folder left world-readable by an older engine, with its database.
    mkdirSync(data(), { recursive: true, mode: 0o755 });
    chmodSync(data(), 0o755);
    writeFileSync(join(data(), 'engine.db'), '');
    chmodSync(join(data(), 'engine.db'), 0o644);
    engine = await startEngine({ host: '127.0.0.1', port: 0, apiKey: KEY, dataDir: data(), workers: 1, quiet: true });
  });
  afterAll(() => engine.close());

  it('makes the data, uploads and audio folders 0700 and the database with its WAL files 0600', async () => {
    // A write makes sure the WAL exists.
    engine.ctx.store.insertTranscript(
      'c0000000-0000-4000-8000-000000000001',
      { audio_url: 'http://example.invalid/a.wav' } as unknown as TranscriptParams,
      'secret-auth-value',
    );
    for (const d of [data(), join(data(), 'uploads'), join(data(), 'audio')]) expect(mode(d), d).toBe(0o700);
    for (const f of ['engine.db', 'engine.db-wal', 'engine.db-shm']) expect(mode(join(data(), f)), f).toBe(0o600);
  });

  it('writes uploads 0600', async () => {
    const res = await fetch(`${engine.url}/v2/upload`, { method: 'POST', headers: { authorization: KEY }, body: Buffer.alloc(4096, 1) });
    const { upload_url } = (await res.json()) as { upload_url: string };
    const id = upload_url.split('/').pop() as string;
    expect(mode(join(data(), 'uploads', id))).toBe(0o600);
  });
});

describe('disk retention', () => {
  it('removes partial, orphaned and unused files and empty work folders, and keeps what transcripts use', () => {
    const store = new Store(join(dir, 'sweep'));
    try {
      const up = (name: string) => join(store.uploadsDir, name);
      // Partial uploads: an old one (a killed upload) goes, a fresh one (in progress) stays.
      writeFileSync(up('old.part'), Buffer.alloc(1000));
      age(up('old.part'), 2 * HOUR);
      writeFileSync(up('fresh.part'), Buffer.alloc(10));
      // A file renamed into place but never recorded.
      writeFileSync(up('d0000000-0000-4000-8000-00000000000f'), Buffer.alloc(10));
      age(up('d0000000-0000-4000-8000-00000000000f'), 2 * HOUR);
      // Recorded uploads: unused and 25 h old (goes), used by a transcript (stays), unused but recent (stays).
      const unused = 'e0000000-0000-4000-8000-000000000001';
      const used = 'e0000000-0000-4000-8000-000000000002';
      const recent = 'e0000000-0000-4000-8000-000000000003';
      for (const id of [unused, used, recent]) {
        writeFileSync(up(id), Buffer.alloc(100));
        store.insertUpload(id, 100);
      }
      store.db.prepare('UPDATE uploads SET created = ? WHERE id IN (?, ?)').run(serviceTime(new Date(Date.now() - 25 * HOUR)), unused, used);
      const params = (audio: string) => ({ audio_url: audio }) as unknown as TranscriptParams;
      const done = 'f0000000-0000-4000-8000-000000000001';
      const queued = 'f0000000-0000-4000-8000-000000000002';
      const redacted = 'f0000000-0000-4000-8000-000000000003';
      store.insertTranscript(done, params(`http://127.0.0.1:9/v2/files/${used}`), null);
      store.complete(done, { text: '' } as never, null);
      store.insertTranscript(queued, params('http://example.invalid/q.wav'), null);
      store.insertTranscript(redacted, params('http://example.invalid/r.wav'), null);
      store.complete(redacted, { text: '' } as never, join(store.transcriptDir(redacted), 'redacted.mp3'));
      // Work folders: a finished job's empty folder and its crash leftovers, a queued job's folder, a folder of no transcript, redacted audio.
      for (const id of [done, queued, redacted, 'gone']) mkdirSync(store.transcriptDir(id), { recursive: true });
      writeFileSync(join(store.transcriptDir(done), 'audio.raw'), Buffer.alloc(500));
      writeFileSync(join(store.transcriptDir(queued), 'download'), Buffer.alloc(5));
      writeFileSync(join(store.transcriptDir(redacted), 'redacted.mp3'), Buffer.alloc(5));
      age(store.transcriptDir('gone'), 2 * HOUR);

      const report = sweepDisk(store);
      expect(report).toMatchObject({ parts: 2, uploads: 1, folders: 2 });
      expect(report.bytes).toBeGreaterThanOrEqual(1000 + 10 + 100 + 500);
      expect(readdirSync(store.uploadsDir).sort()).toEqual(['fresh.part', used, recent].sort());
      expect(store.getUpload(unused)).toBeNull();
      expect(existsSync(store.transcriptDir(done))).toBe(false);
      expect(existsSync(store.transcriptDir('gone'))).toBe(false);
      expect(existsSync(join(store.transcriptDir(queued), 'download'))).toBe(true);
      expect(existsSync(join(store.transcriptDir(redacted), 'redacted.mp3'))).toBe(true);

      // A day later, the upload whose transcript was deleted goes too.
      store.markDeleted(done);
      expect(sweepDisk(store, RETENTION_DEFAULTS, Date.now() + 25 * HOUR).uploads).toBe(2);
      expect(store.getUpload(used)).toBeNull();
    } finally {
      store.close();
    }
  });

  it('removes the .part a kill -9 left mid-upload when the engine starts again', async () => {
    const data = join(dir, 'killed');
    const first = await launchEngine(data, KEY);
    // Start an upload that never finishes, then kill the engine hard.
    const req = request({
      host: '127.0.0.1',
      port: first.port,
      method: 'POST',
      path: '/v2/upload',
      headers: { authorization: KEY, 'content-length': 10_000_000 },
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(256 * 1024));
    const uploads = join(data, 'uploads');
    for (let i = 0; i < 100 && !readdirSync(uploads).some((f) => f.endsWith('.part')); i++) await new Promise((r) => setTimeout(r, 50));
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    const parts = readdirSync(uploads).filter((f) => f.endsWith('.part'));
    expect(parts).toHaveLength(1);
    age(join(uploads, parts[0] as string), 2 * HOUR);

    const second = await launchEngine(data, KEY);
    try {
      expect(readdirSync(uploads).filter((f) => f.endsWith('.part'))).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
