/**
 * A small AssemblyAI-compatible service for the app core's tests, real HTTP
 * on 127.0.0.1 (API.md §2–7): streamed uploads to disk, create/get/list/delete,
 * sentences/paragraphs views, webhooks, state kept in a JSON file so that a
 * restarted process finds its transcripts again. "Transcription" returns a
 * fixed script after `processMs`; it stands in for the local engine where a
 * test is about the client, not about recognition.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

export interface FakeTranscript {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'error';
  audio_url: string;
  created: string;
  completed_at_ms: number | null;
  ready_at_ms: number;
  error: string | null;
  webhook_url: string | null;
  webhook_auth_header_name: string | null;
  webhook_auth_header_value: string | null;
  params: Record<string, unknown>;
}

export const SCRIPT = 'Hello world. This is a test of the transcription desk. Verbatim keeps every word offline.';

export interface FakeService {
  url: string;
  port: number;
  server: Server;
  creates: number;
  uploads: number;
  /** Bytes received per finished upload. */
  uploadSizes: number[];
  /** The next created transcript ends with this error (then it is cleared). */
  failNext: string | null;
  transcripts(): FakeTranscript[];
  files(): string[];
  close(): Promise<void>;
}

export async function startFakeService(opts: { port?: number; apiKey: string; dataDir: string; processMs?: number }): Promise<FakeService> {
  const dir = opts.dataDir;
  mkdirSync(join(dir, 'files'), { recursive: true });
  const stateFile = join(dir, 'state.json');
  const state: Record<string, FakeTranscript> = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, FakeTranscript>) : {};
  // Atomic, so a kill -9 mid-write never leaves a half file behind.
  const save = () => {
    writeFileSync(`${stateFile}.tmp`, JSON.stringify(state));
    renameSync(`${stateFile}.tmp`, stateFile);
  };
  const processMs = opts.processMs ?? 300;
  let base = '';
  const svc = { creates: 0, uploads: 0, uploadSizes: [] as number[], failNext: null as string | null };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  };

  const words = () => {
    let t = 100;
    return SCRIPT.split(' ').map((text) => {
      const w = { text, start: t, end: t + 300, confidence: 0.9, speaker: null, channel: null };
      t += 400;
      return w;
    });
  };

  const view = (t: FakeTranscript) => {
    const now = Date.now();
    if (t.status !== 'completed' && t.status !== 'error') {
      if (now >= t.ready_at_ms) {
        const audioOk = t.audio_url.startsWith(base) ? existsSync(join(dir, 'files', t.audio_url.split('/').pop()!)) : true;
        t.status = audioOk ? 'completed' : 'error';
        t.error = audioOk ? null : `Download error, unable to download ${t.audio_url}.`;
        t.completed_at_ms = now;
        save();
        void deliver(t);
      } else if (now >= t.ready_at_ms - processMs / 2) t.status = 'processing';
    }
    const done = t.status === 'completed';
    return {
      id: t.id,
      status: t.status,
      audio_url: t.audio_url,
      text: done ? SCRIPT : null,
      words: done ? words() : null,
      utterances: null,
      confidence: done ? 0.9 : null,
      audio_duration: done ? 6 : null,
      error: t.error,
      language_code: 'en_us',
      speech_model_used: done ? 'universal-2' : null,
      webhook_url: t.webhook_url,
      redact_pii_audio: false,
    };
  };

  const deliver = async (t: FakeTranscript) => {
    if (!t.webhook_url) return;
    const body = JSON.stringify({ transcript_id: t.id, status: t.status });
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (t.webhook_auth_header_name) headers[t.webhook_auth_header_name] = t.webhook_auth_header_value ?? '';
    await new Promise<void>((resolve) => {
      const r = request(t.webhook_url!, { method: 'POST', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      r.on('error', () => resolve());
      r.end(body);
    });
  };

  // Complete transcripts on time even when nobody polls (so webhooks fire).
  const ticker = setInterval(() => {
    for (const t of Object.values(state)) if (t.status !== 'completed' && t.status !== 'error' && Date.now() >= t.ready_at_ms) view(t);
  }, 20);

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/health') return send(res, 200, { status: 'ok' });
    if (req.headers.authorization !== opts.apiKey) {
      req.resume();
      return send(res, 401, { error: 'Authentication error, API token missing/invalid' });
    }
    const parts = url.pathname.split('/').filter(Boolean);
    if (req.method === 'POST' && url.pathname === '/v2/upload') {
      const id = randomUUID();
      const part = join(dir, 'files', `${id}.part`);
      try {
        await pipeline(req, createWriteStream(part));
      } catch {
        rmSync(part, { force: true });
        return;
      }
      const size = statSync(part).size;
      await rename(part, join(dir, 'files', id));
      svc.uploads++;
      svc.uploadSizes.push(size);
      return send(res, 200, { upload_url: `${base}/v2/files/${id}` });
    }
    if (req.method === 'POST' && url.pathname === '/v2/transcript') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const p = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (typeof p.audio_url !== 'string') return send(res, 400, { error: 'audio_url is required' });
      svc.creates++;
      const t: FakeTranscript = {
        id: randomUUID(),
        status: 'queued',
        audio_url: p.audio_url,
        created: new Date().toISOString().replace('Z', ''),
        completed_at_ms: null,
        ready_at_ms: Date.now() + processMs,
        error: null,
        webhook_url: typeof p.webhook_url === 'string' ? p.webhook_url : null,
        webhook_auth_header_name: typeof p.webhook_auth_header_name === 'string' ? p.webhook_auth_header_name : null,
        webhook_auth_header_value: typeof p.webhook_auth_header_value === 'string' ? p.webhook_auth_header_value : null,
        params: p,
      };
      if (svc.failNext) {
        t.status = 'error';
        t.error = svc.failNext;
        svc.failNext = null;
      }
      state[t.id] = t;
      save();
      return send(res, 200, view(t));
    }
    if (req.method === 'GET' && url.pathname === '/v2/transcript') {
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const list = Object.values(state)
        .sort((a, b) => b.created.localeCompare(a.created))
        .slice(0, limit)
        .map((t) => ({
          id: t.id,
          status: t.status,
          created: t.created,
          completed: t.completed_at_ms ? new Date(t.completed_at_ms).toISOString().replace('Z', '') : null,
          audio_url: t.audio_url,
          error: t.error,
          resource_url: `${base}/v2/transcript/${t.id}`,
        }));
      return send(res, 200, { page_details: { limit, result_count: list.length, prev_url: null, next_url: null, current_url: req.url }, transcripts: list });
    }
    if (parts[0] === 'v2' && parts[1] === 'transcript' && parts[2]) {
      const t = state[parts[2]];
      if (!t) return send(res, 404, { error: 'Transcript not found' });
      if (req.method === 'DELETE') {
        const name = t.audio_url.split('/').pop();
        if (name) rmSync(join(dir, 'files', name), { force: true });
        delete state[t.id];
        save();
        return send(res, 200, { ...view(t), text: 'Deleted by user.' });
      }
      const v = view(t);
      if (!parts[3]) return send(res, 200, v);
      if (v.status !== 'completed') return send(res, 400, { error: 'Transcript is not completed' });
      const ws = v.words!;
      const spans = [ws.slice(0, 2), ws.slice(2, 10), ws.slice(10)].map((w) => ({
        text: w.map((x) => x.text).join(' '),
        start: w[0]!.start,
        end: w[w.length - 1]!.end,
        confidence: 0.9,
        words: w,
      }));
      if (parts[3] === 'sentences') return send(res, 200, { id: t.id, sentences: spans });
      if (parts[3] === 'paragraphs')
        return send(res, 200, { id: t.id, paragraphs: [{ ...spans[0]!, text: spans.map((s) => s.text).join(' '), end: spans[2]!.end, words: ws }] });
    }
    req.resume();
    return send(res, 404, { error: 'Not found' });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return Object.assign(svc, {
    url: base,
    port,
    server,
    transcripts: () => Object.values(state),
    files: () => readdirSync(join(dir, 'files')),
    async close() {
      clearInterval(ticker);
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  });
}
