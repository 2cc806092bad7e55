/**
 * A meeting for the re-cluster benchmarks (bench/recluster.ts, bench/real-size.ts): `turns` turns of 8 words
 * among four voices, each turn's voiceprint its voice's direction plus noise, kept in the library as the
 * engine would have left them, so a re-cluster needs no engine. Answers the recording's id.
 */
import type { Library } from '../src/main/services/library/library';
import type { EngineManager } from '../src/main/services/local-engine';
import { VoicesService } from '../src/main/services/voices/service';
import type { Word } from '../src/shared/library';
import { addCompleted } from '../tests/support/library';

export const VOICES = 4;

export function reclusterMeeting(lib: Library, turns: number, dim: number, rand: () => number): string {
  const centres = Array.from({ length: VOICES }, () => Array.from({ length: dim }, () => rand() * 2 - 1));
  const words: Word[] = [];
  const kept = [];
  let t = 0;
  for (let k = 0; k < turns; k++) {
    const v = Math.floor(rand() * VOICES);
    const first = words.length;
    for (let i = 0; i < 8; i++)
      words.push({ text: `w${i}`, start: t + i * 400, end: t + i * 400 + 350, confidence: 0.9, speaker: String.fromCharCode(65 + v) });
    const c = centres[v] as number[];
    kept.push({
      firstWord: first,
      lastWord: words.length - 1,
      start: t,
      end: t + 3200,
      model: 'bench',
      vector: Float32Array.from(c, (x) => x + (rand() * 2 - 1) * 0.9),
    });
    t += 4000;
  }
  const { recordingId, transcriptId } = addCompleted(lib, `Meeting of ${turns} turns`, words);
  lib.voices.saveTurns(transcriptId, kept);
  return recordingId;
}

/** The voices service over `lib` with no engine: every print the benchmarks use is kept. */
export function keptPrintsOnly(lib: Library): VoicesService {
  return new VoicesService(lib, lib.voices, { ensure: () => Promise.reject(new Error('every print is kept')) } as unknown as EngineManager);
}
