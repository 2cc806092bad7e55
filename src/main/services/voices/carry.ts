/**
 * Names through a re-cluster: the speakers a user named (or the library recognised) before keep their names
 * on the new groups that hold their voice. A name with a remembered voice goes to the new group whose prints
 * are most like that voice; a name given without remembering goes to the new group that took most of its
 * speech. Each name to one group, each group one name, the surest pairs first. Pure.
 */
import { centroid, cosine } from '../../../shared/voices/cluster';

/** A speaker of the transcript before the re-cluster that has a name. */
export interface NamedSpeaker {
  speaker: string;
  name: string;
  /** The remembered voice it was named or recognised as, with that voice's centroid print; null for a name only. */
  voice: { id: string; vector: Float32Array; similarity: number } | null;
}

/** A turn: the speaker its words had before, the new group's letter, its speech and its print. */
export interface CarryTurn {
  before: string | null;
  after: string;
  ms: number;
  vector: Float32Array | null;
}

/** The named speaker each new letter takes its name from. */
export function carryNames(turns: readonly CarryTurn[], named: readonly NamedSpeaker[]): Map<string, NamedSpeaker & { similarity: number | null }> {
  const letters = [...new Set(turns.map((t) => t.after))];
  const out = new Map<string, NamedSpeaker & { similarity: number | null }>();
  const placed = new Set<NamedSpeaker>();
  const prints = new Map(letters.map((l) => [l, turns.filter((t) => t.after === l && t.vector).map((t) => t.vector as Float32Array)]));
  const centres = new Map([...prints].filter(([, vs]) => vs.length > 0).map(([l, vs]) => [l, centroid(vs)]));
  const byVoice = named
    .filter((n) => n.voice)
    .flatMap((n) => [...centres].map(([letter, c]) => ({ n, letter, score: cosine(c, (n.voice as { vector: Float32Array }).vector) })));
  const byTurns = named.flatMap((n) =>
    letters.map((letter) => ({ n, letter, score: turns.reduce((s, t) => s + (t.before === n.speaker && t.after === letter ? Math.max(1, t.ms) : 0), 0) })),
  );
  for (const [pairs, voiced] of [
    [byVoice, true],
    [byTurns.filter((p) => p.score > 0), false],
  ] as const) {
    for (const p of [...pairs].sort((a, b) => b.score - a.score)) {
      if (placed.has(p.n) || out.has(p.letter)) continue;
      placed.add(p.n);
      out.set(p.letter, { ...p.n, similarity: voiced ? p.score : null });
    }
  }
  return out;
}
