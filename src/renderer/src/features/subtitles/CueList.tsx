/**
 * The cue list, windowed: number, times, text and rule marks of each cue;
 * arrows move the selection. Rows have one fixed height, so which rows are on
 * screen is arithmetic on the scroll position and the list's height (both
 * kept from events): an edit never reads layout back from the page, and never
 * rebuilds a measurement per cue (5,000 objects an edit with a virtualizer).
 */
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { cueDisplayText, type Cue, type Issue } from '../../../../shared/subtitles/index';
import { cachedCheck, currentProfile, playhead, useSubtitles } from '../../stores/subtitles';
import { cueTime } from './time';

const ROW = 52;
/**
 * The scrolled content is this many rows taller at most than the cues. A change
 * of its size makes Chromium raster the list's whole scrolled layer again (about
 * 4,000 px around the view: 14 ms of raster and 10 ms of tile work per edit on
 * our machines); growing it in steps keeps split, insert, merge and delete from
 * resizing it, at the cost of up to this much blank space after the last cue.
 */
const SPACER_STEP = 16;
const spacerRows = (n: number): number => Math.ceil((n + 1) / SPACER_STEP) * SPACER_STEP;
/** Rows drawn beyond each edge of the view, so a fast scroll does not show blank space. */
const OVERSCAN = 8;
/** After the user scrolls the list, the playing cue waits this long before it scrolls the list again. */
const FOLLOW_AFTER_SCROLL_MS = 3000;

interface RowProps {
  index: number;
  cue: Cue;
  /** Its rules check, the same array while the cue and its neighbours are unchanged (cachedCheck), so memo holds. */
  issues: Issue[];
  selected: boolean;
  playing: boolean;
  top: number;
  onPick(index: number, extend: boolean): void;
  onEdit(): void;
}

/** One cue of the list. Memoized: an edit re-renders the rows it touched, not every row on screen. */
const CueRow = memo(function CueRow({ index, cue: c, issues, selected, playing, top, onPick, onEdit }: RowProps) {
  const errors = issues.filter((i) => i.severity === 'error');
  return (
    <div
      id={`cue-${index}`}
      role="option"
      aria-selected={selected}
      className={`cue${selected ? ' cue--selected' : ''}${playing ? ' cue--playing' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW }}
      data-testid="cue-row"
      onClick={(e) => onPick(index, e.shiftKey)}
      onDoubleClick={onEdit}
    >
      <span className="cue__n">{index + 1}</span>
      <span className="cue__time">
        {cueTime(c.start)} → {cueTime(c.end)}
      </span>
      <span className="cue__text">{cueDisplayText(c.text).replace(/\n/g, ' / ') || <em className="muted">(empty)</em>}</span>
      {issues.length > 0 && (
        <span className={`cue__flag cue__flag--${errors.length ? 'error' : 'warn'}`} title={issues.map((i) => i.message).join('\n')}>
          {errors.length ? `${errors.length} ${errors.length === 1 ? 'problem' : 'problems'}` : 'fast'}
          <span className="sr-only">: {issues.map((i) => i.message).join(' ')}</span>
        </span>
      )}
    </div>
  );
});

/**
 * Rows are keyed by their cue, not their place: after a split, merge, insert or delete the rows below keep their
 * elements and only move and renumber, instead of every row on screen getting another cue's text to lay out.
 */
const rowKeys = new WeakMap<Cue, number>();
let lastRowKey = 0;
function rowKey(cue: Cue, i: number, used: Set<number | string>): number | string {
  let k: number | string | undefined = rowKeys.get(cue);
  if (k === undefined) rowKeys.set(cue, (k = ++lastRowKey));
  // The same cue object twice in a list is not made by any edit; if it ever is, the place keeps the keys apart.
  if (used.has(k)) k = `${k}@${i}`;
  used.add(k);
  return k;
}

export function CueList({ onEdit }: { onEdit(): void }) {
  const cues = useSubtitles((s) => s.cues);
  const selection = useSubtitles((s) => s.selection);
  const playing = useSubtitles((s) => s.playing);
  const profile = useSubtitles(currentProfile);
  const select = useSubtitles((s) => s.select);
  const scroller = useRef<HTMLDivElement>(null);
  // Scroll position and height as last reported by the page (scroll events, ResizeObserver): never read during an edit.
  const [port, setPort] = useState({ top: 0, height: 600 });
  const portRef = useRef(port);
  const update = useCallback((next: { top: number; height: number }) => {
    portRef.current = next;
    setPort(next);
  }, []);
  const current = selection[0] ?? -1;
  const sel = new Set(selection);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Its first report is the list's height now.
    const ro = new ResizeObserver(([e]) => e && update({ ...portRef.current, height: e.contentRect.height }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [update]);

  /** Brings a row into view when it is not (nearest edge, as scrollIntoView's "nearest"). */
  const reveal = useCallback(
    (row: number) => {
      const el = scroller.current;
      if (!el || row < 0) return;
      const { top, height } = portRef.current;
      const rowTop = row * ROW;
      const to = rowTop < top ? rowTop : rowTop + ROW > top + height ? rowTop + ROW - height : null;
      if (to === null) return;
      el.scrollTop = to;
      // The rows of the new position are drawn in this frame, not after the scroll event.
      update({ top: to, height });
    },
    [update],
  );
  /** When the user last scrolled the list: the playing cue does not pull the list away from where they are looking. */
  const userScrolled = useRef(-Infinity);

  // The selected row comes into view; so does the cue being played, unless the user scrolled the list in the last few seconds.
  useEffect(() => reveal(current), [current, reveal]);
  /** Where the playhead was when the list last followed it: an edit that renumbers the cue under a still playhead moves nothing. */
  const followedAt = useRef(NaN);
  useEffect(() => {
    const at = playhead.get();
    if (at === followedAt.current) return;
    followedAt.current = at;
    if (performance.now() - userScrolled.current > FOLLOW_AFTER_SCROLL_MS) reveal(playing);
  }, [playing, reveal]);

  const first = Math.max(0, Math.floor(port.top / ROW) - OVERSCAN);
  const last = Math.min(cues.length - 1, Math.ceil((port.top + port.height) / ROW) + OVERSCAN);
  const rows: number[] = [];
  for (let i = first; i <= last; i++) rows.push(i);
  const used = new Set<number | string>();

  return (
    <div
      ref={scroller}
      className="cues"
      role="listbox"
      aria-label={`Cues (${cues.length})`}
      aria-multiselectable="true"
      tabIndex={0}
      aria-activedescendant={current >= 0 ? `cue-${current}` : undefined}
      data-testid="cue-list"
      onScroll={(e) => {
        const top = e.currentTarget.scrollTop;
        // A scroll this list did not ask for (reveal() records its own target first) is the user's.
        if (top !== portRef.current.top) {
          userScrolled.current = performance.now();
          update({ ...portRef.current, top });
        }
      }}
      onKeyDown={(e) => {
        if (e.altKey || e.ctrlKey || e.metaKey) return;
        const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : e.key === 'PageDown' ? 10 : e.key === 'PageUp' ? -10 : 0;
        if (step) {
          e.preventDefault();
          select(Math.max(0, Math.min(cues.length - 1, (e.shiftKey ? (selection[selection.length - 1] ?? current) : current) + step)), e.shiftKey);
        } else if (e.key === 'Home' || e.key === 'End') {
          e.preventDefault();
          select(e.key === 'Home' ? 0 : cues.length - 1);
        } else if (e.key === 'Enter' || e.key === 'F2') {
          e.preventDefault();
          onEdit();
        }
      }}
    >
      <div style={{ height: spacerRows(cues.length) * ROW, position: 'relative' }}>
        {rows.map((i) => (
          <CueRow
            key={rowKey(cues[i]!, i, used)}
            index={i}
            cue={cues[i]!}
            issues={cachedCheck(cues, i, profile)}
            selected={sel.has(i)}
            playing={playing === i}
            top={i * ROW}
            onPick={select}
            onEdit={onEdit}
          />
        ))}
      </div>
    </div>
  );
}
