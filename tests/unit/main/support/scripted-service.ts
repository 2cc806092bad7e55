/**
 * A scripted AssemblyAI-compatible REST service on 127.0.0.1 for the job
 * machine's tests: each route answers from a queue the test fills (a status,
 * a hang that never answers, a create that happens but whose answer is lost),
 * then falls back to a well-behaved default. It counts what really happened.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How one request is answered. */
export type Scripted =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answer (until the server closes). */
  | 'hang'
  /** Create: make the transcript, then never answer (the answer is lost). */
  | 'create-then-hang'
  /** Create: make the transcript, then answer 503 (it exists all the same). */
  | 'create-then-503';

export interface ScriptedTranscript {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'error';
  audio_url: string;
  created: string;
  /** Statuses to answer before `completed`, consumed one per GET. */
  pending: ('queued' | 'processing')[];
}

export interface ScriptedService {
  url: string;
  /** Answers queued per route, used first to last. */
  script: { upload: Scripted[]; create: Scripted[]; get: Scripted[]; list: Scripted[] };
  /** Statuses every new transcript passes through before completing. */
  pending: ('queued' | 'processing')[];
  /** The host:port the upload answer names (an engine's earlier port); default this server's. */
  uploadOrigin: string | null;
  transcripts: Map<string, ScriptedTranscript>;
  uploads: number;
  createRequests: number;
  deletes: string[];
  /** Every request, as "METHOD /path". */
  log: string[];
  close(): Promise<void>;
}

export const WORDS = [
  { text: 'Hello', start: 100, end: 400, confidence: 0.9, speaker: null },
  { text: 'world.', start: 500, end: 800, confidence: 0.9, speaker: null },
];

export async function startScriptedService(): Promise<ScriptedService> {
  const held: ServerResponse[] = [];
  const svc: Omit<ScriptedService, 'url' | 'close'> = {
    script: { upload: [], create: [], get: [], list: [] },
    pending: ['processing'],
    uploadOrigin: null,
    transcripts: new Map(),
    uploads: 0,
    createRequests: 0,
    deletes: [],
    log: [],
  };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
  };
  const answer = (res: ServerResponse, s: Scripted | undefined, otherwise: () => void) => {
    if (s === undefined) return otherwise();
    if (s === 'hang') return void held.push(res);
    if (typeof s === 'string') return otherwise();
    json(res, s.status, s.body ?? { error: `scripted ${s.status}` }, s.headers);
  };
  const body = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  const view = (t: ScriptedTranscript) => {
    const next = t.pending.shift();
    if (next) t.status = next;
    else if (t.status !== 'error') t.status = 'completed';
    return t.status === 'completed'
      ? {
          id: t.id,
          status: t.status,
          audio_url: t.audio_url,
          text: 'Hello world.',
          words: WORDS,
          confidence: 0.9,
          audio_duration: 1,
          language_code: 'en_us',
          speech_model_used: 'scripted',
        }
      : { id: t.id, status: t.status, audio_url: t.audio_url };
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      svc.log.push(`${req.method} ${url.pathname}`);
      if (req.method === 'POST' && url.pathname === '/v2/upload') {
        // The script is taken when the request arrives, even if its body never completes.
        const s = svc.script.upload.shift();
        await body(req).catch(() => undefined);
        return answer(res, s, () => {
          svc.uploads++;
          json(res, 200, { upload_url: `http://${svc.uploadOrigin ?? req.headers.host}/v2/files/${randomUUID()}` });
        });
      }
      if (req.method === 'POST' && url.pathname === '/v2/transcript') {
        const s = svc.script.create.shift();
        const params = JSON.parse((await body(req)).toString('utf8')) as { audio_url: string };
        svc.createRequests++;
        const make = () => {
          const t: ScriptedTranscript = {
            id: randomUUID(),
            status: 'queued',
            audio_url: params.audio_url,
            created: new Date().toISOString(),
            pending: [...svc.pending],
          };
          svc.transcripts.set(t.id, t);
          return t;
        };
        if (s === 'create-then-hang') return void (make(), held.push(res));
        if (s === 'create-then-503') return void (make(), json(res, 503, { error: 'lost' }));
        return answer(res, s, () => json(res, 200, { id: make().id, status: 'queued' }));
      }
      if (req.method === 'GET' && url.pathname === '/v2/transcript') {
        return answer(res, svc.script.list.shift(), () =>
          json(res, 200, {
            page_details: { limit: 200, result_count: svc.transcripts.size, prev_url: null, next_url: null },
            transcripts: [...svc.transcripts.values()]
              .reverse()
              .map((t) => ({ id: t.id, status: t.status, created: t.created, audio_url: t.audio_url, error: null })),
          }),
        );
      }
      const m = /^\/v2\/transcript\/([^/]+)(\/.*)?$/.exec(url.pathname);
      if (m && req.method === 'DELETE') {
        svc.deletes.push(m[1]!);
        return json(res, 200, { id: m[1], status: 'completed' });
      }
      if (m && req.method === 'GET' && !m[2]) {
        return answer(res, svc.script.get.shift(), () => {
          const t = svc.transcripts.get(m[1]!);
          if (!t) return json(res, 404, { error: 'Transcript not found' });
          json(res, 200, view(t));
        });
      }
      json(res, 404, { error: 'not here' });
    })().catch(() => {
      // A request the client gave up on mid-body (a job service disposed by the test): nothing to answer.
      res.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(svc, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}
