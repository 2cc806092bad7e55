/**
 * Review of doubtful words, in the transcript's header (the Subtitles screen shares it): how many words
 * under the threshold are left, a button and F8 (Shift+F8 back) to jump to the next one, and the threshold.
 * The jump itself is the review store's; the transcript view and the cue editor each put the caret there.
 */
import { useEffect, useMemo } from 'react';
import type { Transcript } from '../../../../shared/library';
import { Button } from '../../components/Button';
import { confidenceSource } from '../../lib/confidenceSource';
import { DEFAULT_REVIEW_THRESHOLD, REVIEW_THRESHOLDS } from '../../lib/review';
import { doubtfulOf, useReview } from '../../stores/review';
import { useSettings } from '../../stores/settings';
import { toast } from '../../stores/toasts';
import { useTranscript } from '../../stores/transcript';

/** The review key: F8 goes to the next doubtful word, Shift+F8 to the one before; it works while a word is being typed. */
export function isReviewKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return e.key === 'F8' && !e.ctrlKey && !e.metaKey && !e.altKey;
}

function jump(dir: 1 | -1): void {
  if (!useReview.getState().jump(dir)) toast('No doubtful words are left at this threshold.', 'info');
}

export function ReviewBar({ transcript }: { transcript: Transcript }) {
  const item = transcript.item;
  const source = confidenceSource(item.region, item.model);
  const threshold = useSettings((s) => s.settings.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD);
  const update = useSettings((s) => s.update);
  const accepted = useReview((s) => s.accepted);
  const loadedFor = useReview((s) => s.transcriptId);
  const corrected = useTranscript((s) => s.corrected);
  const partial = useTranscript((s) => s.partial);
  const load = useReview((s) => s.load);
  const on = source !== 'none';

  useEffect(() => {
    if (on) void load(item.id, transcript.transcriptId);
  }, [on, load, item.id, transcript.transcriptId]);

  useEffect(() => {
    if (!on) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isReviewKey(e) || e.defaultPrevented || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      jump(e.shiftKey ? -1 : 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [on]);

  const left = useMemo(
    () => (loadedFor === transcript.transcriptId ? doubtfulOf(transcript.words, threshold, accepted, corrected).length : null),
    [loadedFor, transcript.transcriptId, transcript.words, threshold, accepted, corrected],
  );
  if (!on) return null;
  const counted = left !== null && !partial;
  return (
    <div className="review" role="group" aria-label="Review doubtful words" data-testid="review">
      <Button size="sm" icon="skip" onClick={() => jump(1)} aria-keyshortcuts="F8" title="Next doubtful word (F8; Shift+F8 goes back)" disabled={left === 0}>
        Next doubtful
      </Button>
      <span className="review__count" role="status" data-testid="review-count" data-left={counted ? left : undefined}>
        {!counted ? 'Counting…' : left === 0 ? 'No doubtful words left' : left === 1 ? '1 doubtful word left' : `${left.toLocaleString()} doubtful words left`}
      </span>
      <label className="review__threshold">
        <span className="sr-only">Doubtful below</span>
        <select
          value={threshold}
          title="A word is doubtful when its confidence is below this"
          onChange={(e) => void update({ reviewThreshold: Number(e.target.value) })}
        >
          {REVIEW_THRESHOLDS.map((t) => (
            <option key={t} value={t}>
              under {Math.round(t * 100)}%
            </option>
          ))}
          {!REVIEW_THRESHOLDS.some((t) => t === threshold) && <option value={threshold}>under {Math.round(threshold * 100)}%</option>}
        </select>
      </label>
    </div>
  );
}
