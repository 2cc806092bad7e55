/**
 * The engine's gateway instance and what other parts of the engine call:
 * `checkSpeechUnderstanding` (validate a create request's
 * `speech_understanding` up front) and `applySpeechUnderstanding` (run it on
 * a finished transcript). Both throw `GatewayError` with an HTTP status.
 */
import type { EngineContext } from '../server';
import { loadGatewayConfig } from './config';
import { Gateway, type UnderstandingResult, type UnderstandingTranscript } from './gateway';

export { Gateway, EXTRACTIVE_MODEL, GatewayError } from './gateway';
export type { UnderstandingResult, UnderstandingTranscript } from './gateway';
export type { GatewayOptions } from './config';

const instances = new WeakMap<EngineContext, Gateway>();

/** The gateway of this engine (built on first use from `<data>/gateway.json` and the `gateway` option). */
export function gatewayFor(ctx: EngineContext): Gateway {
  let g = instances.get(ctx);
  if (!g) {
    const opts = ctx.opts.gateway ?? {};
    g = new Gateway(loadGatewayConfig(ctx.opts.dataDir, opts), ctx.store);
    instances.set(ctx, g);
  }
  return g;
}

/** Throws GatewayError(400) when the engine cannot do what `su` asks. */
export function checkSpeechUnderstanding(ctx: EngineContext, su: unknown): void {
  gatewayFor(ctx).checkUnderstanding(su);
}

/** Runs speech understanding on a completed transcript; merge the result into the transcript object. */
export function applySpeechUnderstanding(ctx: EngineContext, transcript: UnderstandingTranscript, su: unknown, signal?: AbortSignal): Promise<UnderstandingResult> {
  return gatewayFor(ctx).understand(transcript, su, signal);
}
