/**
 * Voiceprint arithmetic shared by the engine (live speaker labels) and the app (re-clustering a recording's
 * stored turn embeddings, matching remembered voices): cosine similarity, online clustering bounded by a
 * speaker count, agglomerative clustering to N groups or by threshold, and merging of "phantom" clusters
 * that hold too little speech to be a person. Pure arithmetic on number arrays; no I/O.
 */

/** A vector of any length; embeddings from one model share a length. */
export type Vector = ArrayLike<number>;

/** Cosine similarity in [-1, 1]; 0 when either vector is all zeros. */
export function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** `v` scaled to unit length (a copy); all zeros stay zeros. */
export function unit(v: Vector): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += (v[i] as number) ** 2;
  const s = n ? 1 / Math.sqrt(n) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) * s;
  return out;
}

/** The mean direction of several vectors (the unit vector of the sum of their unit vectors). */
export function centroid(vs: readonly Vector[]): Float32Array {
  const dim = vs[0]?.length ?? 0;
  const sum = new Float32Array(dim);
  for (const v of vs) {
    const u = unit(v);
    for (let i = 0; i < dim; i++) sum[i] = (sum[i] as number) + (u[i] as number);
  }
  return unit(sum);
}

/** "A", "B", … "Z", "AA", … for cluster 0, 1, … (the letters the cloud uses). */
export function speakerLetter(i: number): string {
  let s = '';
  let n = i;
  do {
    s = String.fromCharCode(65 + (n % 26)) + s;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return s;
}

/** Similarity above which two embeddings are taken for one voice (cosine distance 0.5, sherpa-onnx's default threshold). */
export const SAME_VOICE = 0.5;

/**
 * Online clustering for live turns: each new embedding joins the most similar speaker when that is at least
 * `threshold` similar (or when `maxSpeakers` are already known), else it starts a new speaker. A speaker's
 * direction is the running mean of its turns' unit vectors, so one odd turn moves it little.
 */
export class OnlineSpeakers {
  private readonly sums: Float32Array[] = [];

  constructor(
    private readonly maxSpeakers: number | null = null,
    private readonly threshold = SAME_VOICE,
  ) {}

  get count(): number {
    return this.sums.length;
  }

  /** Speaker `i`'s direction (the sum of its turns' unit vectors: compare it by cosine), or undefined. */
  direction(i: number): Float32Array | undefined {
    return this.sums[i];
  }

  /** The speaker index (0 for the first voice heard) of an embedding, and how similar it was to that speaker (1 for a new one). */
  assign(embedding: Vector): { speaker: number; similarity: number } {
    const u = unit(embedding);
    let best = -1;
    let bestSim = -Infinity;
    this.sums.forEach((s, i) => {
      const sim = cosine(s, u);
      if (sim > bestSim) {
        bestSim = sim;
        best = i;
      }
    });
    const full = this.maxSpeakers !== null && this.sums.length >= this.maxSpeakers;
    if (best < 0 || (bestSim < this.threshold && !full)) {
      this.sums.push(Float32Array.from(u));
      return { speaker: this.sums.length - 1, similarity: 1 };
    }
    const s = this.sums[best] as Float32Array;
    for (let i = 0; i < s.length; i++) s[i] = (s[i] as number) + (u[i] as number);
    return { speaker: best, similarity: bestSim };
  }
}

/** The nearest of `known` to `probe` (unit vectors give the fastest answer), or null when `known` is empty. */
export function bestMatch(probe: Vector, known: readonly { id: string; vector: Vector }[]): { id: string; similarity: number } | null {
  const p = unit(probe);
  let best: { id: string; similarity: number } | null = null;
  for (const k of known) {
    const sim = cosine(p, k.vector);
    if (!best || sim > best.similarity) best = { id: k.id, similarity: sim };
  }
  return best;
}

/** How a set of turn embeddings is grouped: to exactly `speakers` groups, or by the similarity threshold ("Auto"). */
export type Grouping = { speakers: number } | { threshold: number };

/**
 * Agglomerative clustering (average linkage on cosine similarity): merges the most similar two groups until
 * `speakers` remain, or, by threshold, while the most similar two are at least that similar. Returns each
 * item's group, numbered by first appearance. O(n²) time after the n² similarities (nearest-neighbour chain
 * with Lance–Williams updates; see groupSteps).
 */
export function groupVoices(items: readonly Vector[], g: Grouping): number[] {
  const steps = groupSteps(items, g);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * groupVoices as steps: the generator yields after each bounded slice of work (a row of similarities, a link
 * of the chain; at most a few milliseconds for thousands of items) and returns the grouping, so a caller on an
 * event loop can run it in slices. The same merges as merging the most similar pair again and again (average
 * linkage is reducible: the nearest-neighbour chain builds the same tree, and its merge similarities never
 * rise, so the first k merges of the greedy order are the k most similar merges of the tree).
 */
export function* groupSteps(items: readonly Vector[], g: Grouping): Generator<void, number[]> {
  const n = items.length;
  const keep = 'speakers' in g ? Math.max(1, g.speakers) : 1;
  if (n <= 1 || n <= keep)
    return renumber(
      n,
      items.map((_, i) => [i]),
    );
  // Unit vectors (float32, as unit() gives) and each one's squared length, so that sim(i, j) is cosine()'s very
  // value: the same sums in the same order, with the lengths summed once instead of once per pair.
  const units = items.map((v) => Float64Array.from(unit(v)));
  const norm = Float64Array.from(units, (u) => u.reduce((s, x) => s + x * x, 0));
  // The upper triangle of the similarity matrix, row by row: sim(i, j), i < j, at row(i) + j.
  const row = (i: number): number => i * n - (i * (i + 1)) / 2 - i - 1;
  const at = (i: number, j: number): number => (i < j ? row(i) + j : row(j) + i);
  const sim = new Float64Array((n * (n - 1)) / 2);
  for (let i = 0; i < n; i++) {
    const a = units[i] as Float64Array;
    const na = norm[i] as number;
    const base = row(i);
    for (let j = i + 1; j < n; j++) {
      const b = units[j] as Float64Array;
      const dim = Math.min(a.length, b.length);
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += (a[k] as number) * (b[k] as number);
      const nb = norm[j] as number;
      sim[base + j] = a.length !== b.length ? cosine(a, b) : na && nb ? dot / Math.sqrt(na * nb) : 0;
    }
    yield;
  }
  const size = new Float64Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  const merges: { a: number; b: number; s: number }[] = [];
  const chain: number[] = [];
  let left = n;
  while (left > 1) {
    if (chain.length === 0) chain.push(active.indexOf(1));
    const x = chain[chain.length - 1] as number;
    const prev = chain.length >= 2 ? (chain[chain.length - 2] as number) : -1;
    // x's most similar active group; the one before x on the chain wins a tie, so the chain always ends.
    let y = prev;
    let best = prev >= 0 ? (sim[at(x, prev)] as number) : -Infinity;
    // Column x above the diagonal (k < x), then row x (k > x).
    for (let k = 0, i = x - 1; k < x; i += n - k - 2, k++) {
      if (!active[k] || k === prev) continue;
      const s = sim[i] as number;
      if (s > best) {
        best = s;
        y = k;
      }
    }
    for (let k = x + 1, i = row(x) + x + 1; k < n; k++, i++) {
      if (!active[k] || k === prev) continue;
      const s = sim[i] as number;
      if (s > best) {
        best = s;
        y = k;
      }
    }
    // Only similarities that are not numbers (a print of NaNs) leave none: x then joins any other group.
    if (y < 0) y = active.findIndex((on, k) => on === 1 && k !== x);
    if (y !== prev) {
      chain.push(y);
      yield;
      continue;
    }
    chain.length -= 2;
    // x and y are each other's nearest: merge y into x (Lance–Williams for average linkage).
    merges.push({ a: x, b: y, s: best });
    const sx = size[x] as number;
    const sy = size[y] as number;
    for (let k = 0; k < n; k++) {
      if (!active[k] || k === x || k === y) continue;
      sim[at(x, k)] = (sx * (sim[at(x, k)] as number) + sy * (sim[at(y, k)] as number)) / (sx + sy);
    }
    size[x] = sx + sy;
    active[y] = 0;
    left--;
    yield;
  }
  // The greedy order: most similar merge first (stable, so equal similarities keep the tree's order).
  merges.sort((p, q) => q.s - p.s);
  const take = 'speakers' in g ? n - keep : merges.findIndex((m) => !(m.s >= g.threshold));
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] = parent[parent[r] as number] as number;
    return r;
  };
  for (const m of merges.slice(0, take < 0 ? merges.length : take)) parent[root(m.b)] = root(m.a);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = root(i);
    const grp = groups.get(r);
    if (grp) grp.push(i);
    else groups.set(r, [i]);
  }
  return renumber(n, [...groups.values()]);
}

function renumber(n: number, groups: number[][]): number[] {
  const of = new Array<number>(n).fill(0);
  groups.forEach((grp, k) => grp.forEach((i) => (of[i] = k)));
  const order = new Map<number, number>();
  return of.map((k) => {
    if (!order.has(k)) order.set(k, order.size);
    return order.get(k) as number;
  });
}

/**
 * Folds groups with less than `minSpeechMs` of speech into the group whose centroid is most similar (a
 * "phantom" speaker: a cough, a short overlap, a noise). Returns the new grouping (renumbered by first
 * appearance) and how many groups were folded. With only one group, or when every group is short, nothing moves.
 */
export function mergePhantoms(
  items: readonly { vector: Vector; ms: number }[],
  groupOf: readonly number[],
  minSpeechMs: number,
): { groups: number[]; merged: number } {
  const ids = [...new Set(groupOf)];
  const speech = new Map<number, number>();
  items.forEach((it, i) => speech.set(groupOf[i] as number, (speech.get(groupOf[i] as number) ?? 0) + it.ms));
  const real = ids.filter((g) => (speech.get(g) ?? 0) >= minSpeechMs);
  if (real.length === 0 || real.length === ids.length) return { groups: [...groupOf], merged: 0 };
  const centre = new Map(real.map((g) => [g, centroid(items.filter((_, i) => groupOf[i] === g).map((it) => it.vector))]));
  const into = new Map<number, number>();
  for (const g of ids) {
    if (centre.has(g)) continue;
    const c = centroid(items.filter((_, i) => groupOf[i] === g).map((it) => it.vector));
    let best = real[0] as number;
    let bestSim = -Infinity;
    for (const r of real) {
      const s = cosine(c, centre.get(r) as Float32Array);
      if (s > bestSim) {
        bestSim = s;
        best = r;
      }
    }
    into.set(g, best);
  }
  const moved = groupOf.map((g) => into.get(g) ?? g);
  const groups = new Map<number, number[]>();
  moved.forEach((g, i) => groups.set(g, [...(groups.get(g) ?? []), i]));
  return { groups: renumber(items.length, [...groups.values()]), merged: into.size };
}
