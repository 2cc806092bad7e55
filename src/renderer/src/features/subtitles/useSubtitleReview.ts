/**
 * Review of doubtful words in the subtitle editor: when review jumps (F8 in the shared header), the cue
 * that holds the word is selected, the editor's media plays half a second either side of the word, and the
 * caret selects the word in the cue's text. Ctrl+Enter on the text as it is accepts the word (typing a
 * correction and saving it goes through the cue edit, which corrects the transcript's word).
 */
import { useEffect, type RefObject } from 'react';
import type { Cue } from '../../../../shared/library';
import { reviewWindow } from '../../lib/review';
import { useReview } from '../../stores/review';
import { cueAt, useSubtitles } from '../../stores/subtitles';
import { useTranscript } from '../../stores/transcript';

/** The cue under `ms`, else the last one that starts by then (a word between cues), else the first. */
function cueFor(cues: readonly Cue[], ms: number): number {
  const at = cueAt(cues, ms);
  if (at >= 0) return at;
  let last = -1;
  for (let i = 0; i < cues.length && (cues[i] as Cue).start <= ms; i++) last = i;
  return Math.max(0, last);
}

/** Where the word is in the cue's text: the occurrence nearest its share of the cue's time (a word may appear twice). */
export function wordOffset(text: string, word: string, share: number): number {
  const hay = text.toLowerCase();
  const needle = word.toLowerCase();
  const want = share * text.length;
  let best = -1;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) if (best < 0 || Math.abs(at - want) < Math.abs(best - want)) best = at;
  return best;
}

export function useSubtitleReview(media: HTMLMediaElement | null, text: RefObject<HTMLTextAreaElement | null>): void {
  useEffect(() => {
    let stopAt: number | null = null;
    let raf = 0;
    const watch = () => {
      if (!media || stopAt === null) return;
      if (media.currentTime * 1000 >= stopAt) {
        media.pause();
        media.currentTime = stopAt / 1000;
        stopAt = null;
        return;
      }
      raf = requestAnimationFrame(watch);
    };
    const off = useReview.subscribe((s, prev) => {
      if (!s.target || s.target === prev.target) return;
      const word = useTranscript.getState().transcript?.words[s.target.index];
      const sub = useSubtitles.getState();
      if (!word || sub.cues.length === 0) return;
      const index = cueFor(sub.cues, word.start);
      sub.select(index);
      if (media) {
        const { from, to } = reviewWindow(word);
        cancelAnimationFrame(raf);
        media.currentTime = from / 1000;
        stopAt = to;
        void media.play().then(
          () => (raf = requestAnimationFrame(watch)),
          () => undefined,
        );
      }
      // The editor shows the newly selected cue after this render: the caret goes in then.
      requestAnimationFrame(() => {
        const el = text.current;
        const cue = useSubtitles.getState().cues[index];
        if (!el || !cue) return;
        el.focus();
        const share = cue.end > cue.start ? (word.start - cue.start) / (cue.end - cue.start) : 0;
        const at = wordOffset(el.value, word.text.replace(/[^\p{L}\p{N}'’-]+$/u, ''), Math.min(1, Math.max(0, share)));
        if (at >= 0) el.setSelectionRange(at, at + word.text.replace(/[^\p{L}\p{N}'’-]+$/u, '').length);
      });
    });
    // Ctrl+Enter on the review's word with the text unchanged: accepted as heard.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.target !== text.current) return;
      const target = useReview.getState().target;
      const sub = useSubtitles.getState();
      const cue = sub.cues[sub.selection[0] ?? -1];
      const word = target ? useTranscript.getState().transcript?.words[target.index] : undefined;
      if (!target || !cue || !word || text.current?.value !== cue.text) return;
      if (cueFor(sub.cues, word.start) === sub.selection[0]) void useReview.getState().accept(target.index);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      off();
      cancelAnimationFrame(raf);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [media, text]);
}
