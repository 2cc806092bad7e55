/** Who said a live turn, in words: the microphone is always "You"; system audio with speaker labels is a remembered voice's name or "Speaker A", "Speaker B", … else "Others". */
import { sourceLabels, type LiveSource } from '../audio-frame';

/** What the captions panel and overlay show before a turn's text, or null for nothing (one source, no speaker labels). */
export function liveWho(turn: { source: LiveSource; speaker?: string | null; speakerName?: string | null }, bothSources: boolean): string | null {
  if (turn.source === 'system' && turn.speakerName) return turn.speakerName;
  if (turn.source === 'system' && turn.speaker) return `Speaker ${turn.speaker}`;
  return bothSources ? sourceLabels[turn.source] : null;
}

/** The speaker a live turn's words take in the library: "You" for the microphone with two sources, the label of a system speaker, else "Others" or none. */
export function liveSpeakerId(turn: { source: LiveSource; speaker?: string | null }, bothSources: boolean): string | null {
  if (turn.source === 'system' && turn.speaker) return turn.speaker;
  return bothSources ? sourceLabels[turn.source] : null;
}

/** How sure a recognition was, in words: "91% match", or "in live captions" where the local engine named the voice as it spoke (RECOGNISED_LIVE, below 0). */
export function matchText(similarity: number): string {
  return similarity < 0 ? 'in live captions' : `${Math.round(similarity * 100)}% match`;
}
