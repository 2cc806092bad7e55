/**
 * Speech sent at real time in 50 ms frames, the way a microphone sends it: through the official SDK's
 * streaming client to an engine's /v3/ws, or as the renderer's PCM frames into the app's captions service.
 * The live speaker tests share these.
 */
import { StreamingTranscriber, type StreamingTranscriberParams, type TurnEvent } from 'assemblyai';
import { encodeFrame, type LiveSource } from '../../src/shared/audio-frame';
import type { CaptionsService } from '../../src/main/services/captions/service';

/**
 * Two voices taking turns A, B, A, two seconds apart (longer than max_turn_silence, so each change of voice ends a turn).
 * Each line is about 2 s of speech: well over the second a turn needs for its label, and the conversation plays at real time.
 */
export const ABA_LINES = [
  { voice: 'A' as const, text: 'Good morning and welcome to the meeting.' },
  { voice: 'B' as const, text: 'Thank you it is good to be back.' },
  { voice: 'A' as const, text: 'Let us start with the budget.' },
];

/** Streams 16 kHz PCM through the SDK to `wssUrl` (…/v3/ws) and answers every turn it reported, once the engine has terminated the session. */
export async function streamThroughSdk(
  wssUrl: string,
  apiKey: string,
  pcm: Int16Array,
  params: Partial<StreamingTranscriberParams> = {},
): Promise<TurnEvent[]> {
  const transcriber = new StreamingTranscriber({
    websocketBaseUrl: wssUrl,
    apiKey,
    sampleRate: 16000,
    // The SDK gives up on a connection after 1 s by default; a loaded machine can take longer to answer Begin.
    connectTimeout: 30_000,
    ...params,
  });
  const got: TurnEvent[] = [];
  transcriber.on('turn', (t) => got.push(t));
  transcriber.on('error', () => undefined);
  await transcriber.connect();
  const frames = Math.ceil(pcm.length / 800);
  const all = new Int16Array(frames * 800);
  all.set(pcm);
  const start = Date.now();
  for (let n = 0; n < frames; n++) {
    transcriber.sendAudio(new Uint8Array(all.buffer, n * 1600, 1600).slice().buffer);
    const due = start + (n + 1) * 50 - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
  }
  // Waits for the engine's Termination, which follows the last turn.
  await transcriber.close(true, 0);
  return got;
}

/** Feeds PCM16 bytes of one source into a captions run as the renderer's frame pump does. */
export async function feedCaptions(svc: CaptionsService, run: number, source: LiveSource, pcm: Buffer): Promise<void> {
  const t0 = performance.now();
  for (let i = 0, n = 0; i < pcm.length; i += 1600, n++) {
    const frame = Buffer.alloc(1600);
    pcm.copy(frame, 0, i, Math.min(pcm.length, i + 1600));
    svc.frame(new Uint8Array(encodeFrame({ kind: 'pcm', source, run, capturedAt: Date.now(), payload: frame })));
    const due = t0 + (n + 1) * 50;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
  }
}
