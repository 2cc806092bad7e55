/** The cue list, virtualized (@tanstack/react-virtual): number, times, text and rule marks of each cue; arrows move the selection. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import type { Cue, Issue } from '../../../../shared/captions/index';
import { cachedCheck, currentProfile, useSubtitles } from '../../stores/subtitles';
import { cueTime } from './time';

const ROW = 52;

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
      <span className="cue__text">{c.text.replace(/<[^>]*>/g, '').replace(/\n/g, ' / ') || <em className="muted">(empty)</em>}</span>
      {issues.length > 0 && (
        <span className={`cue__flag cue__flag--${errors.length ? 'error' : 'warn'}`} title={issues.map((i) => i.message).join('\n')}>
          {errors.length ? `${errors.length} ${errors.length === 1 ? 'problem' : 'problems'}` : 'fast'}
          <span className="sr-only">: {issues.map((i) => i.message).join(' ')}</span>
        </span>
      )}
    </div>
  );
});

export function CueList({ onEdit }: { onEdit(): void }) {
  const cues = useSubtitles((s) => s.cues);
  const selection = useSubtitles((s) => s.selection);
  const playing = useSubtitles((s) => s.playing);
  const profile = useSubtitles(currentProfile);
  const select = useSubtitles((s) => s.select);
  const scroller = useRef<HTMLDivElement>(null);
  // The React Compiler is not used here; the virtualizer's functions are fresh on each render by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const v = useVirtualizer({ count: cues.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 8 });
  const current = selection[0] ?? -1;
  const sel = new Set(selection);

  useEffect(() => {
    if (current >= 0) v.scrollToIndex(current, { align: 'auto' });
  }, [current, v]);

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
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((row) => (
          <CueRow
            key={row.key}
            index={row.index}
            cue={cues[row.index]!}
            issues={cachedCheck(cues, row.index, profile)}
            selected={sel.has(row.index)}
            playing={playing === row.index}
            top={row.start}
            onPick={select}
            onEdit={onEdit}
          />
        ))}
      </div>
    </div>
  );
}
