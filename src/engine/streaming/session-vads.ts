/**
 * The live sessions' speech detectors (Silero VAD), pooled: reset between sessions, freed after a minute
 * unused (see VadPool), and built ahead of the sessions that may follow one, a slice at a time.
 */
import { VadPool, type StreamingVad } from '../audio/vad';
import { inSlice } from './slices';

// Live detectors are pooled and reset between sessions, and freed after a minute unused (see VadPool).
// Speech is confirmed after two 32 ms windows above threshold (the decoder needs ~200 ms of speech
// for its first word anyway, so a longer confirmation only delays the first caption). At Silero's
// usual 0.5 some openings ("Thank…", "After…") were confirmed 250-400 ms after they began; 0.35
// confirms them with the rest and, with the earlier pre-roll, their first word is heard right too.
const vadPool = new VadPool({ minSilenceMs: 100, minSpeechMs: 32, threshold: 0.35 }, 16);

export const acquireVad = (): StreamingVad | null => vadPool.acquire();
let warming = false;
/**
 * Builds the detectors of `sessions` concurrent sessions ahead of them, one
 * per slice (~50 ms each): several built where sessions arrived together held
 * the event loop for 200 ms.
 */
export function prewarmSessionVads(sessions: number): void {
  if (warming) return;
  warming = true;
  const step = (): void => {
    if (vadPool.warmOne(sessions)) inSlice(step);
    else warming = false;
  };
  inSlice(step);
}
export const releaseVad = (v: StreamingVad): void => vadPool.release(v);
