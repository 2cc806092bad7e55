/**
 * The LLM gateway over HTTP (API.md §9): `/v1/chat/completions` (JSON or
 * server-sent events), `/v1/models`, `/v1/speech-understanding` (also at
 * `/v1/understanding`). Bodies are checked with src/shared/api/gateway.ts. Logic lives in
 * gateway/; this file adapts requests, rate-limit headers and errors.
 */
import type { ServerResponse } from 'node:http';
import { UnderstandingRequestSchema, type ChatCompletionChunk, type ModelList } from '../../shared/api/gateway';
import { firstIssue } from '../../shared/api/transcript';
import { GatewayError } from '../gateway/gateway';
import type { RateDecision } from '../gateway/rate-limit';
import type { EngineContext } from '../context';
import { readJson } from './body';
import { gatewayError } from './errors';
import { sendJson } from './respond';
import { HttpError, type RouteRequest, type Router } from './router';
import { toWire } from './wire';

function asHttp(err: unknown, headers: Record<string, string> = {}): unknown {
  if (err instanceof GatewayError) return new HttpError(err.status, err.message, { ...headers, ...err.headers });
  if (err instanceof HttpError) return new HttpError(err.status, err.message, { ...headers, ...err.headers });
  return err;
}

function refuse(model: string, d: RateDecision): HttpError {
  return new HttpError(
    429,
    `Rate limit reached for model ${model}: ${d.headers['X-RateLimit-Limit']} requests per minute. Retry in ${d.resetSeconds} s.`,
    d.headers,
  );
}

/** Chat bodies beyond this answer 413: a transcript is named by transcript_id, not pasted, so real requests stay far below it. */
export const GATEWAY_BODY_LIMIT = 2 * 1024 * 1024;
const BODY_HINT = 'Name transcripts with transcript_id (or transcript_ids) instead of pasting their text, or send a shorter conversation.';

export function registerGateway(ctx: EngineContext, router: Router): void {
  const gateway = ctx.gateway;
  const upstreams = gateway.config.upstreams.map((u) => `${u.baseUrl} (${u.models.map((m) => (typeof m === 'string' ? m : m.id)).join(', ')})`);
  if (upstreams.length) ctx.logger.info(`LLM gateway upstreams: ${upstreams.join('; ')}`);

  router.get('/v1/models', async ({ res }) => {
    await gateway.refresh();
    const list: ModelList = {
      object: 'list',
      // Built-in and installed local models are the engine's own; the rest come from upstreams.
      data: gateway
        .models()
        .map((m) => ({ ...m, object: 'model', owned_by: m.id === 'verbatim-extractive' || gateway.local.has(m.id) ? 'verbatim' : 'upstream' })),
    };
    sendJson(res, 200, list);
  });

  router.post('/v1/chat/completions', async ({ req, res }) => {
    const body = await readJson(req, GATEWAY_BODY_LIMIT, BODY_HINT);
    await gateway.refresh();
    const model = body && typeof body === 'object' && typeof (body as { model?: unknown }).model === 'string' ? (body as { model: string }).model : null;
    let decision: RateDecision | null = null;
    try {
      if (model) gateway.provider(model);
      if (model) {
        decision = gateway.rate(model, 'llm-gateway');
        if (!decision.allowed) throw refuse(model, decision);
      }
      const { req: chat, stream, provider } = gateway.prepare(body);
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      if (!stream) {
        sendJson(res, 200, await gateway.complete(chat, provider, abort.signal), decision?.headers ?? {});
        return;
      }
      await sendEvents(res, gateway.streamChunks(chat, provider, abort.signal), decision?.headers ?? {});
    } catch (err) {
      throw asHttp(err, decision?.headers ?? {});
    }
  });

  // The seed's path and the cloud's current one: real clients send either.
  const understanding = async ({ req, res }: RouteRequest): Promise<void> => {
    const body = await readJson(req, GATEWAY_BODY_LIMIT, BODY_HINT);
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new HttpError(400, 'The body must be a JSON object with transcript_id and speech_understanding.');
    await gateway.refresh();
    const model = gateway.understandingModel() ?? 'verbatim-local-rules';
    const decision = gateway.rate(model, 'speech-understanding');
    if (!decision.allowed) throw refuse(model, decision);
    try {
      const parsed = UnderstandingRequestSchema.safeParse(body);
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        // Which features the engine can run is the gateway's answer, with its own messages.
        if (i?.path[0] !== 'speech_understanding') throw new HttpError(400, firstIssue(parsed.error));
      }
      const b = body as { transcript_id: string; speech_understanding: unknown };
      const row = ctx.store.getTranscript(b.transcript_id);
      if (!row || row.deleted) throw new HttpError(404, 'Transcript not found');
      if (row.status !== 'completed' || !row.result) throw new HttpError(400, 'Transcript is not completed');
      const result = await gateway.understand({ text: row.result.text, utterances: null }, b.speech_understanding);
      // The spec types utterances as an array here: a transcript without speaker turns leaves it out.
      const { utterances, ...transcript } = toWire(row);
      sendJson(res, 200, { ...transcript, ...(utterances ? { utterances } : {}), ...result }, decision.headers);
    } catch (err) {
      throw asHttp(err, decision.headers);
    }
  };
  router.post('/v1/speech-understanding', understanding);
  router.post('/v1/understanding', understanding);
  // The SDK's validateUnderstanding: the same checks of speech_understanding, nothing run; 200 when it would be taken.
  router.post('/v1/understanding/validate', async ({ req, res }) => {
    const body = await readJson(req, GATEWAY_BODY_LIMIT, BODY_HINT);
    if (!body || typeof body !== 'object' || Array.isArray(body) || !('speech_understanding' in body))
      throw new HttpError(400, 'The body must be a JSON object with speech_understanding.');
    await gateway.refresh();
    try {
      gateway.checkUnderstanding((body as { speech_understanding: unknown }).speech_understanding);
    } catch (err) {
      throw asHttp(err);
    }
    sendJson(res, 200, { valid: true });
  });
}

async function sendEvents(res: ServerResponse, chunks: AsyncGenerator<ChatCompletionChunk>, headers: Record<string, string>): Promise<void> {
  const it = chunks[Symbol.asyncIterator]();
  // Wait for the first chunk so an upstream failure can still be a plain HTTP error.
  const first = await it.next();
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  try {
    if (!first.done) res.write(`data: ${JSON.stringify(first.value)}\n\n`);
    for (let n = first.done ? null : await it.next(); n && !n.done; n = await it.next()) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(n.value)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  } catch (err) {
    const status = err instanceof GatewayError ? err.status : 502;
    if (!res.destroyed) res.end(`data: ${JSON.stringify(gatewayError(status, err instanceof Error ? err.message : String(err)))}\n\n`);
  }
}
