/**
 * How a request's speaker counts become sherpa-onnx clustering runs, minding
 * its traps: zero means "default" there (numClusters 0 → threshold, threshold
 * 0 → 0.5), and a numClusters above the number of embeddings makes everyone
 * speaker 0. So counts are only asked for when given, and an answer of one
 * voice to a request for several falls back to the threshold's answer.
 */

/** What the request asked: `speakers_expected`, or `speaker_options` bounds (null: not given). */
export interface SpeakerCounts {
  expected: number | null;
  min: number | null;
  max: number | null;
}

/** One clustering run: a fixed number of clusters, or a distance threshold. */
export type Clustering = { numClusters: number } | { threshold: number };

/** A diarizer turn in seconds, as sherpa-onnx answers. */
export interface DiarizedSegment {
  start: number;
  end: number;
  speaker: number;
}

/** sherpa-onnx's own default threshold, said explicitly (0 would mean it too, but by accident). */
export const DEFAULT_THRESHOLD = 0.5;
/** The most voices a request may name (the cloud's documented limit). */
export const MAX_SPEAKERS = 10;

export interface ClusteringOutcome {
  segments: DiarizedSegment[];
  /** What ran last and gave `segments`. */
  clustering: Clustering | null;
  /** Something the user should know (e.g. fewer voices found than expected). */
  warning: string | null;
}

export function distinctSpeakers(segments: readonly DiarizedSegment[]): number {
  return new Set(segments.map((s) => s.speaker)).size;
}

/**
 * Runs the diarizer (`run`) as the counts ask: a fixed count when expected,
 * else the threshold, then the nearest bound when the threshold's answer falls
 * outside min/max. One expected speaker needs no run at all.
 */
export async function clusterAsAsked(counts: SpeakerCounts, run: (c: Clustering) => Promise<DiarizedSegment[]>): Promise<ClusteringOutcome> {
  const expected = counts.expected && counts.expected > 0 ? counts.expected : null;
  if (expected === 1) return { segments: [], clustering: null, warning: null };
  const byThreshold = async (): Promise<ClusteringOutcome> => {
    const c = { threshold: DEFAULT_THRESHOLD };
    return { segments: await run(c), clustering: c, warning: null };
  };
  if (expected) {
    const c = { numClusters: expected };
    const segments = await run(c);
    if (segments.length === 0 || distinctSpeakers(segments) > 1) return { segments, clustering: c, warning: null };
    // One voice for several asked: too little speech for that many clusters (everyone became speaker 0).
    const t = await byThreshold();
    const found = distinctSpeakers(t.segments);
    return {
      ...t,
      warning: `speakers_expected was ${expected}, but only ${found} voice${found === 1 ? ' was' : 's were'} found with enough speech to tell apart.`,
    };
  }
  const t = await byThreshold();
  const found = distinctSpeakers(t.segments);
  const min = counts.min && counts.min > 0 ? counts.min : null;
  const max = counts.max && counts.max > 0 ? counts.max : null;
  const bound = min && found < min ? min : max && found > max ? max : null;
  if (bound === null || bound === 1) {
    if (bound === 1) return { segments: t.segments.map((s) => ({ ...s, speaker: 0 })), clustering: t.clustering, warning: null };
    return t;
  }
  const c = { numClusters: bound };
  const segments = await run(c);
  if (bound > 1 && distinctSpeakers(segments) <= 1 && found > 1) {
    return { ...t, warning: `speaker_options asked for at least ${bound} speakers, but only ${found} could be told apart.` };
  }
  return { segments, clustering: c, warning: null };
}

/**
 * The samples to diarize: audio no longer than the segmentation window takes
 * sherpa-onnx's one-chunk path (no embeddings, no clustering, counts
 * ignored), so a short file is padded with silence to just past the window
 * and clustered like any other. Returns the length to pad to, or null.
 */
export function paddedLength(samples: number, windowSize: number, windowShift: number): number | null {
  return samples <= windowSize ? windowSize + Math.max(1, windowShift) : null;
}

/** Cosine distance (1 − cosine similarity) of two voiceprints. */
export function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = (b[i] as number) ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? 1 - dot / Math.sqrt(na * nb) : 1;
}

/**
 * Agglomerative clustering of voiceprints (average linkage, cosine distance):
 * merges the closest two groups until `numClusters` remain, or, by threshold,
 * while the closest two are nearer than it. Returns each voiceprint's group,
 * numbered by first appearance. Used to join the speakers of the pieces a
 * long file is diarized in.
 */
export function clusterVoiceprints(prints: readonly ArrayLike<number>[], c: Clustering): number[] {
  let groups = prints.map((_, i) => [i]);
  const d = prints.map((a) => prints.map((b) => cosineDistance(a, b)));
  const linkage = (g: number[], h: number[]): number => {
    let sum = 0;
    for (const i of g) for (const j of h) sum += (d[i] as number[])[j] as number;
    return sum / (g.length * h.length);
  };
  for (;;) {
    if ('numClusters' in c && groups.length <= c.numClusters) break;
    let best = Infinity;
    let pair: [number, number] = [0, 0];
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const l = linkage(groups[i] as number[], groups[j] as number[]);
        if (l < best) {
          best = l;
          pair = [i, j];
        }
      }
    if (groups.length < 2 || ('threshold' in c && best >= c.threshold)) break;
    const [i, j] = pair;
    groups = [...groups.filter((_, k) => k !== i && k !== j), [...(groups[i] as number[]), ...(groups[j] as number[])]];
  }
  const of = new Array<number>(prints.length).fill(0);
  groups.forEach((g, k) => g.forEach((i) => (of[i] = k)));
  const order = new Map<number, number>();
  return of.map((k) => {
    if (!order.has(k)) order.set(k, order.size);
    return order.get(k) as number;
  });
}
