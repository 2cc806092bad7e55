/**
 * The transcript as paragraphs of word spans, virtualized so a two-hour
 * recording opens fast. Each paragraph subscribes only to whether the active
 * word is inside it. Click a word to seek; double-click (or E on the active
 * word) to correct it in place.
 */
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { SavedTranslation } from '../../../../shared/captions-extras';
import type { Transcript } from '../../../../shared/library';
import { MAX_VOICE_NAME } from '../../../../shared/voices/names';
import { formatClock } from '../../components/format';
import { InlineEdit } from '../../components/InlineEdit';
import { shortcutBlocked } from '../../components/shortcuts';
import { originalOf, useTranscript } from '../../stores/transcript';
import { useReview } from '../../stores/review';
import { useSessionExtras } from '../../stores/sessionExtras';
import { useSettings } from '../../stores/settings';
import { approximateTimes } from '../../lib/wordTimes';
import { DEFAULT_REVIEW_THRESHOLD } from '../../lib/review';
import { confidenceSource } from '../../lib/confidenceSource';
import { blockOf, saysSpeaker, type Block } from './paragraphs';
import { translationsByBlock } from './sessionTranslations';

function SpeakerLabel({ id, name }: { id: string; name: string | null }) {
  const rename = useTranscript((s) => s.renameSpeaker);
  const [editing, setEditing] = useState(false);
  const shown = name ?? `Speaker ${id}`;
  if (editing) {
    return (
      <InlineEdit
        className="speaker__edit"
        label={`Name for speaker ${id}`}
        initial={name ?? ''}
        maxLength={MAX_VOICE_NAME}
        placeholder={`Speaker ${id}`}
        onCancel={() => setEditing(false)}
        onCommit={async (v) => {
          setEditing(false);
          if (v !== (name ?? '')) await rename(id, v === '' ? null : v);
        }}
      />
    );
  }
  return (
    <button
      type="button"
      className={`speaker speaker--${id.toLowerCase()}`}
      title="Rename this speaker everywhere"
      aria-label={`${shown}: rename`}
      onClick={() => setEditing(true)}
    >
      {shown}
    </button>
  );
}

interface ParagraphProps {
  index: number;
  block: Block;
  transcript: Transcript;
  editing: number | null;
  /** `index`: the word whose editor closed (another may have opened since: review jumped on). */
  onEditDone(byKey: boolean, index: number): void;
  /** A saved live session's translated lines of this paragraph, when the user shows them. */
  translation?: SavedTranslation[];
  /** The paragraph before is the same speaker's: the speaker's name is not said again. */
  continues?: boolean;
}

const Paragraph = memo(function Paragraph({ block, transcript, editing, onEditDone, translation, continues }: ParagraphProps) {
  const active = useTranscript((s) => (s.active >= block.first && s.active <= block.last ? s.active : -1));
  const find = useTranscript((s) => s.find);
  const corrected = useTranscript((s) => s.corrected);
  const seek = useTranscript((s) => s.seek);
  const correct = useTranscript((s) => s.correct);
  // Doubtful words are tinted at review's threshold; a word accepted in review is no longer doubtful.
  const low = useSettings((s) => s.settings.reviewThreshold ?? DEFAULT_REVIEW_THRESHOLD);
  const accepted = useReview((s) => s.accepted);
  // Only the paragraph that holds review's word re-renders on a jump.
  const reviewing = useReview((s) => (s.target && s.target.index >= block.first && s.target.index <= block.last ? s.target.index : -1));
  const accept = useReview((s) => s.accept);
  const speakers = transcript.speakers;
  // A model that gives no word confidences has no doubtful words: no tint, as review offers none (ReviewBar).
  const scored = confidenceSource(transcript.item.region, transcript.item.model) !== 'none';
  const hits = useMemo(() => {
    const set = new Map<number, boolean>();
    if (!find.length) return set;
    find.matches.forEach((m, k) => {
      if (m + find.length - 1 < block.first || m > block.last) return;
      for (let j = 0; j < find.length; j++) set.set(m + j, k === find.cursor);
    });
    return set;
  }, [find, block.first, block.last]);
  const words = [];
  for (let i = block.first; i <= block.last; i++) {
    const w = transcript.words[i];
    if (!w) continue;
    if (editing === i) {
      words.push(
        <WordEditor
          key={i}
          index={i}
          text={w.text}
          onDone={(byKey) => onEditDone(byKey, i)}
          onSave={(t) => correct(i, t)}
          onAccept={reviewing === i ? () => void accept(i) : undefined}
        />,
      );
      continue;
    }
    const original = originalOf(w, i, corrected);
    let cls = 'w';
    if (i === active) cls += ' w--active';
    const doubtful = scored && w.confidence < low && !accepted.has(i);
    if (doubtful) cls += ' w--low';
    if (original !== null) cls += ' w--fixed';
    const hit = hits.get(i);
    if (hit !== undefined) cls += hit ? ' w--hit w--current' : ' w--hit';
    words.push(
      <span
        key={i}
        className={cls}
        data-i={i}
        title={original !== null ? `Corrected from “${original}”` : doubtful ? `Low confidence (${Math.round(w.confidence * 100)}%)` : undefined}
      >
        {w.text}
      </span>,
      ' ',
    );
  }
  const speaker = block.speaker ? speakers.find((s) => s.id === block.speaker) : undefined;
  return (
    <div className="para" data-first={block.first}>
      <div className="para__gutter">
        <button type="button" className="para__time" onClick={() => seek(block.start)} aria-label={`Play from ${formatClock(block.start)}`}>
          {formatClock(block.start)}
        </button>
      </div>
      <div className="para__body">
        {block.speaker && !continues && <SpeakerLabel id={block.speaker} name={speaker?.name ?? null} />}
        <p className="para__text">{words}</p>
        {translation?.map((t) => (
          <p key={t.key} className="para__translation" lang={t.language} data-testid="transcript-translation">
            {t.text}
          </p>
        ))}
      </div>
    </div>
  );
});

/**
 * `onDone(byKey)`: true after Enter/Escape, when focus should come back to the text; false on blur, when the user put it elsewhere.
 * `onAccept`: review put the caret here; Enter on the word as it is accepts it (the word is selected, so typing replaces it).
 */
function WordEditor({
  index,
  text,
  onSave,
  onDone,
  onAccept,
}: {
  index: number;
  text: string;
  onSave(t: string): Promise<boolean>;
  onDone(byKey: boolean): void;
  onAccept?: () => void;
}) {
  const [value, setValue] = useState(text);
  const done = useRef(false);
  const commit = async (byKey: boolean) => {
    if (done.current) return;
    done.current = true;
    const v = value.trim();
    if (v && v !== text) await onSave(v);
    else if (byKey && onAccept) onAccept();
    onDone(byKey);
  };
  return (
    <>
      <input
        className="inline-edit word-edit"
        aria-label={`Correct word ${index + 1}`}
        value={value}
        size={Math.max(4, value.length + 1)}
        // The user asked to correct this word: focus belongs in the field.
        autoFocus
        onFocus={onAccept ? (e) => e.currentTarget.select() : undefined}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => void commit(false)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void commit(true);
          if (e.key === 'Escape') {
            done.current = true;
            onDone(true);
          }
          // F8 goes on to the next doubtful word (review's key, handled by the window).
          if (e.key !== 'F8') e.stopPropagation();
        }}
      />{' '}
    </>
  );
}

export function TranscriptBody({ transcript, blocks }: { transcript: Transcript; blocks: Block[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const seek = useTranscript((s) => s.seek);
  // The first screen is shown and the rest is on its way (stores/transcript.ts FIRST_SCREEN_WORDS).
  const partial = useTranscript((s) => s.partial);
  const [editing, setEditing] = useState<number | null>(null);
  const shownTranslations = useSessionExtras((s) => (s.showTranslation && s.recordingId === transcript.item.id ? s.translations : null));
  const translated = useMemo(() => (shownTranslations ? translationsByBlock(blocks, shownTranslations) : null), [blocks, shownTranslations]);
  const userScrolledAt = useRef(0);
  // The paragraph of review's word is drawn at once, wherever the scroll is: its editor mounts and takes the caret in the jump's own render, not a frame later.
  const pinned = useRef<number | null>(null);
  // The React Compiler is not used here; the virtualizer's functions are fresh on each render by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: blocks.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => {
      const b = blocks[i];
      return b ? 44 + Math.ceil((b.last - b.first + 1) / 13) * 27 : 80;
    },
    // Two paragraphs either side are ~150 words: enough to scroll into without a blank, and half the work of opening with four.
    overscan: 2,
    // Before the scroller is measured, assume the window: the first render then lays out the paragraphs in view, not none.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    rangeExtractor: (range) => {
      const base = defaultRangeExtractor(range);
      const p = pinned.current;
      return p === null || base.includes(p) ? base : [...base, p].sort((a, b) => a - b);
    },
  });

  // Keep the spoken word in view, unless the user scrolled in the last few seconds.
  useEffect(
    () =>
      useTranscript.subscribe((s, prev) => {
        if (s.active === prev.active || s.active < 0) return;
        if (Date.now() - userScrolledAt.current < 4000) return;
        const bi = blockOf(blocks, s.active);
        if (bi !== blockOf(blocks, Math.max(0, prev.active)) || prev.active < 0) {
          const el = scroller.current?.querySelector(`[data-i="${s.active}"]`);
          const box = scroller.current?.getBoundingClientRect();
          const r = el?.getBoundingClientRect();
          if (!el || !box || !r || r.top < box.top || r.bottom > box.bottom) virtual.scrollToIndex(bi, { align: 'center' });
        }
      }),
    [blocks, virtual],
  );

  // Find: bring the current match into view.
  useEffect(
    () =>
      useTranscript.subscribe((s, prev) => {
        if (s.find === prev.find || s.find.cursor < 0) return;
        const m = s.find.matches[s.find.cursor];
        if (m !== undefined) virtual.scrollToIndex(blockOf(blocks, m), { align: 'center' });
      }),
    [blocks, virtual],
  );

  // Open at a time (search hit): scroll there once.
  useEffect(() => {
    const { active } = useTranscript.getState();
    if (active > 0) virtual.scrollToIndex(blockOf(blocks, active), { align: 'center' });
  }, [blocks, virtual]);

  // Review jumped to a word: the caret goes into it, its paragraph into view.
  useEffect(
    () =>
      useReview.subscribe((s, prev) => {
        if (!s.target || s.target === prev.target) return;
        userScrolledAt.current = 0;
        pinned.current = blockOf(blocks, s.target.index);
        virtual.scrollToIndex(pinned.current, { align: 'center' });
        setEditing(s.target.index);
      }),
    [blocks, virtual],
  );

  // E edits the active word.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (shortcutBlocked(e)) return;
      if (e.key.toLowerCase() === 'e') {
        const { active } = useTranscript.getState();
        if (active >= 0) {
          e.preventDefault();
          setEditing(active);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Stable, so a paragraph's memo holds when the body re-renders (a review jump re-renders only the paragraphs it touches).
  const onEditDone = useCallback((byKey: boolean, index: number) => {
    setEditing((cur) => (cur === index ? null : cur));
    if (byKey) scroller.current?.focus({ preventScroll: true });
  }, []);

  const wordIndex = (e: MouseEvent) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('[data-i]');
    return el ? Number(el.dataset.i) : null;
  };

  const approximate = approximateTimes(transcript.item.model);
  const body = (
    <div
      className="tbody"
      ref={scroller}
      // Focusable: the text scrolls by keyboard, and focus has somewhere to land after a correction.
      tabIndex={0}
      role="region"
      aria-label="Transcript text"
      aria-busy={partial || undefined}
      data-testid="transcript-body"
      onWheel={() => (userScrolledAt.current = Date.now())}
      onKeyDown={(e) => {
        // Home and End reach the real ends: the paragraphs' heights are estimates until they are drawn,
        // so the browser's own End stops where the estimate put the bottom.
        if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
        if (e.key !== 'Home' && e.key !== 'End') return;
        e.preventDefault();
        userScrolledAt.current = Date.now();
        virtual.scrollToIndex(e.key === 'Home' ? 0 : blocks.length - 1, { align: e.key === 'Home' ? 'start' : 'end' });
      }}
      onClick={(e) => {
        const i = wordIndex(e);
        const w = i === null ? undefined : transcript.words[i];
        if (w) seek(w.start);
      }}
      onDoubleClick={(e) => {
        const i = wordIndex(e);
        if (i !== null) setEditing(i);
      }}
    >
      <div className="tbody__inner" style={{ height: virtual.getTotalSize() }}>
        {virtual.getVirtualItems().map((v) => {
          const block = blocks[v.index];
          if (!block) return null;
          return (
            <div key={v.key} data-index={v.index} ref={virtual.measureElement} className="tbody__slot" style={{ transform: `translateY(${v.start}px)` }}>
              <Paragraph
                index={v.index}
                block={block}
                transcript={transcript}
                editing={editing !== null && editing >= block.first && editing <= block.last ? editing : null}
                onEditDone={onEditDone}
                translation={translated?.get(v.index)}
                continues={!saysSpeaker(blocks, v.index)}
              />
            </div>
          );
        })}
      </div>
      {blocks.length === 0 && (
        // A completed transcript with no words: the service found no speech (a tone, music, silence). Too short is an error, not this.
        <p className="muted tbody__empty" data-testid="no-speech">
          No speech was found in this recording. If someone does speak in it, check that the sound is not muted or very faint, then add the file again; if none
          is found again, try another speech model from Models.
        </p>
      )}
    </div>
  );
  if (!approximate) return body;
  // A model without word timings: say so above the text, where the times are read.
  return (
    <div className="tbody-wrap">
      <p className="banner banner--warn tbody__note" data-testid="approximate-times">
        {approximate.note}
      </p>
      {body}
    </div>
  );
}
