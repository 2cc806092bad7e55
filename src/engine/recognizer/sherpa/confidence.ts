/**
 * Word confidences from sherpa-onnx's per-token log-probabilities. Transducer models give one for each
 * token they emit (offline `ys_log_probs`, streaming `ys_probs`: the log-softmax of the chosen token over
 * the vocabulary at the frame that emitted it); CTC, Whisper, Moonshine and SenseVoice results carry none
 * (sherpa-onnx, commit 634265c9b576: only the transducer decoders fill them).
 */

/**
 * Confidence when the model gives no token scores. The wire needs a number; the app does not offer
 * review for these models (it knows them from the catalog's family), so this is never read as a doubt.
 */
export const NO_CONFIDENCE = 0.9;

/** A token's probability from its log-probability: a missing or broken score reads as no confidence at all, a positive one as certain. */
export function tokenProbability(logp: number): number {
  if (Number.isNaN(logp)) return 0;
  return Math.exp(Math.min(0, logp));
}

/**
 * A word's confidence from its tokens' log-probabilities: its least sure token's probability. A word is
 * wrong when any of its pieces is (one doubtful "▁Ph" makes "Phoebe" doubtful however sure "oe" and "be"
 * are), and a mean would hide that piece among the sure ones of a long word. Rounded to 3 places as the
 * wire's other confidences; `NO_CONFIDENCE` when there are no scores.
 */
export function wordConfidence(logps: readonly number[]): number {
  if (logps.length === 0) return NO_CONFIDENCE;
  let least = 1;
  for (const lp of logps) least = Math.min(least, tokenProbability(lp));
  return Math.round(least * 1000) / 1000;
}
