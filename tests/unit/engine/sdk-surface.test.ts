/**
 * A guard for the next SDK bump: reads the pinned `assemblyai` package (its type declarations, and its
 * built client for the routes it calls) and fails naming what the engine does not serve: a
 * `StreamingSpeechModel`, a streaming server message type, a streaming parameter, a route of the REST,
 * streaming token, Sync, Dictation or LLM gateway clients. What the engine leaves out on purpose is listed
 * below with the reason; anything new the SDK adds fails until it is served or listed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServiceModel } from '../../../src/shared/api/service-models';
import { StreamingQuerySchema, StreamingServerMessageSchema } from '../../../src/shared/api/streaming';
import type { RunningEngine } from '../../../src/engine/server';
import { engineSandbox } from '../../support/engine';

const SDK = join(process.cwd(), 'node_modules', 'assemblyai', 'dist');
const streamingTypes = readFileSync(join(SDK, 'types', 'streaming', 'index.d.ts'), 'utf8');
const built = readFileSync(join(SDK, 'node.mjs'), 'utf8');

/** The string literals of a `export type Name = "a" | "b";` declaration. */
function literalUnion(src: string, name: string): string[] {
  const m = new RegExp(`export type ${name} = ([^;]+);`).exec(src);
  if (!m) throw new Error(`the SDK no longer declares ${name}`);
  return [...(m[1] as string).matchAll(/"([^"]+)"/g)].map((x) => x[1] as string);
}

/** Streaming server messages the engine does not send, and why. */
const NOT_SENT: Record<string, string> = {
  SpeechStarted: 'the local engine reports speech by its Turns (partials begin with the speech)',
  LLMGatewayResponse: 'llm_gateway on /v3/ws is not offered by the local engine; use POST /v1/chat/completions',
  Error: 'the engine ends a session with a close code and reason (3005-3009), as the spec gives',
};
/** Streaming parameters the SDK sends that the engine ignores, and why (unknown parameters are ignored, as by the cloud). */
const PARAMS_IGNORED: Record<string, string> = {
  token: 'checked by the route before the schema',
  vad_threshold: 'the engine tunes its own Silero VAD',
  prompt: 'no prompting model runs locally',
  agent_context: 'no prompting model runs locally',
  filter_profanity: 'not in the local engine',
  language_codes: 'English only live, unless a multilingual model is chosen',
  domain: 'not in the local engine',
  voice_focus: 'not in the local engine',
  voice_focus_threshold: 'not in the local engine',
  continuous_partials: 'partials are always sent',
  interruption_delay: 'not in the local engine',
  turn_left_pad_ms: 'not in the local engine',
  _customer_support_audio_capture: 'the engine records nothing for support',
  webhook_url: 'live sessions have no webhook locally',
  webhook_auth_header_name: 'live sessions have no webhook locally',
  webhook_auth_header_value: 'live sessions have no webhook locally',
  include_partial_turns: 'partials are always sent',
  redact_pii: 'not in live sessions locally',
  redact_pii_policies: 'not in live sessions locally',
  redact_pii_sub: 'not in live sessions locally',
  mode: 'not in the local engine',
  llm_gateway: 'see LLMGatewayResponse',
  word_boost: 'Streaming v2 (RealtimeTranscriber), which AssemblyAI retired',
  enable_extra_session_information: 'Streaming v2 (RealtimeTranscriber), which AssemblyAI retired',
  disable_partial_transcripts: 'Streaming v2 (RealtimeTranscriber), which AssemblyAI retired',
  speech_model: 'read by the route (models/choose.ts, sherpa/live.ts) before the schema',
};
/** Routes the SDK calls that the engine does not serve, and why. */
const ROUTES_NOT_SERVED: Record<string, string> = {
  '/v2/realtime/token': 'Streaming v2 (RealtimeTranscriber), which AssemblyAI retired; v3 is /v3/token',
};

describe('the pinned SDK, as the engine serves it', () => {
  it('every StreamingSpeechModel resolves to a model the engine runs', () => {
    const models = literalUnion(streamingTypes, 'StreamingSpeechModel');
    expect(models.length).toBeGreaterThanOrEqual(9);
    expect(models.filter((m) => resolveServiceModel('streaming', m) === null)).toEqual([]);
  });

  it('every streaming server message type is sent by the engine, or listed with its reason', () => {
    const members = literalUnion(
      streamingTypes.replace(/export type StreamingEventMessage = ([^;]+);/, (_, u: string) => `export type X = ${u.replace(/(\w+)/g, '"$1"')};`),
      'X',
    );
    const typeOf = (name: string): string => {
      const m = new RegExp(`export type ${name} = \\{\\s*type: "([^"]+)"`).exec(streamingTypes);
      if (!m) throw new Error(`no type literal for ${name}`);
      return m[1] as string;
    };
    const sent = new Set(StreamingServerMessageSchema.unwrap().options.map((o) => o.shape.type.value as string));
    const missing = members.map(typeOf).filter((t) => !sent.has(t) && !(t in NOT_SENT));
    expect(missing).toEqual([]);
  });

  it('every streaming connection parameter the SDK sends is read by the engine, or listed with its reason', () => {
    const sentBySdk = [...built.matchAll(/searchParams\.set\("([a-z_]+)"/g)].map((m) => m[1] as string);
    expect(sentBySdk).toContain('speaker_labels_revision_interval_ms');
    const read = new Set(Object.keys(StreamingQuerySchema.unwrap().shape));
    expect([...new Set(sentBySdk)].filter((p) => !read.has(p) && !(p in PARAMS_IGNORED))).toEqual([]);
  });

  describe('routes', () => {
    const sandbox = engineSandbox('verbatim-sdk-surface-');
    let engine: RunningEngine;
    beforeAll(async () => {
      engine = await sandbox.start('surface-key');
    });
    afterAll(() => sandbox.cleanup());

    it('every route the SDK calls is served (a wrong method or body is fine; "Not found" for the path is not)', async () => {
      const literals = [...built.matchAll(/["`](\/v[0-9]\/[^"`?]*)[?"`]/g)].map((m) =>
        (m[1] as string).replace(/\$\{format\}/g, 'srt').replace(/\$\{[^}]+\}/g, 'x'),
      );
      const routes = [...new Set(literals)].filter((r) => !(r in ROUTES_NOT_SERVED));
      for (const r of ['/v1/transcribe/live', '/v1/warm', '/v3/token', '/v2/transcript', '/v1/understanding/validate']) expect(routes).toContain(r);
      const unserved: string[] = [];
      for (const route of routes) {
        let found = false;
        for (const method of ['GET', 'POST', 'DELETE']) {
          const r = await fetch(`${engine.url}${route}`, { method, headers: { authorization: 'surface-key' } });
          const text = await r.text();
          // The router's own 404 names no resource ("Not found"); a handler's 404 says what is missing.
          if (!(r.status === 404 && /"(error|detail|message)":"Not found"/.test(text))) found = true;
        }
        if (!found) unserved.push(route);
      }
      expect(unserved).toEqual([]);
    });
  });
});
