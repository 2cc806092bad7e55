/**
 * The remembered voices the app tells the local engine about (PUT /v2/voiceprints/known): held in memory
 * only, as unit vectors per embedding model, so a live session with speaker labels can name a speaker
 * whose voice matches one at or above the user's threshold instead of giving it a letter.
 */
import { cosine, unit } from '../../shared/voices/cluster';
import type { KnownVoicesRequest, KnownVoicesResponse } from '../../shared/voices/wire';

interface Known {
  name: string;
  vector: Float32Array;
}

export class KnownVoices {
  private byModel = new Map<string, Known[]>();
  private threshold = 1;

  /** Replaces every voice held (an empty list forgets them all). */
  set(body: KnownVoicesRequest): void {
    const next = new Map<string, Known[]>();
    for (const v of body.voices) next.set(v.model, [...(next.get(v.model) ?? []), { name: v.name, vector: unit(v.vector) }]);
    this.byModel = next;
    this.threshold = body.threshold;
  }

  describe(): KnownVoicesResponse {
    return { threshold: this.threshold, voices: [...this.byModel].flatMap(([model, vs]) => vs.map((v) => ({ name: v.name, model }))) };
  }

  /**
   * The name of the voice of `model` most like `direction`, when at least the threshold alike; null when
   * none is (or the prints are of another length: another model's, never comparable).
   */
  match(model: string, direction: ArrayLike<number>): string | null {
    let best: Known | null = null;
    let bestSim = -Infinity;
    for (const k of this.byModel.get(model) ?? []) {
      if (k.vector.length !== direction.length) continue;
      const sim = cosine(direction, k.vector);
      if (sim > bestSim) {
        bestSim = sim;
        best = k;
      }
    }
    return best && bestSim >= this.threshold ? best.name : null;
  }
}
