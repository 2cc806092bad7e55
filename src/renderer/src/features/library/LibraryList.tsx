/**
 * The library list: virtualized rows (only what is on screen is in the DOM),
 * pages fetched as they scroll into view, sortable columns, multi-select.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { LibraryItem } from '../../../../shared/library';
import { regionLabels } from '../../components/labels';
import { Badge, type Tone } from '../../components/Badge';
import { statusLabel } from '../../components/status';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { formatClock, formatDate } from '../../components/format';
import { useApp } from '../../stores/app';
import { useLibrary, type SortKey } from '../../stores/library';

export const ROW_HEIGHT = 56;

const regionTone: Record<LibraryItem['region'], Tone> = { us: 'info', eu: 'info', local: 'neutral', custom: 'warn' };

/** Tags that fit the cell whole (a chip is about 14 px + 6.5 px a character, at most 110 px), then "+n". */
const TAG_CELL = 112;
function tagsThatFit(tags: string[]): number {
  let used = 0;
  for (let i = 0; i < tags.length; i++) {
    const chip = Math.min(110, 14 + 6.5 * (tags[i] as string).length) + 4;
    const reserve = i < tags.length - 1 ? 26 : 0;
    if (used + chip + reserve > TAG_CELL) return Math.max(i, 1);
    used += chip;
  }
  return tags.length;
}

function TitleCell({ item }: { item: LibraryItem }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(item.title);
  const rename = useLibrary((s) => s.rename);
  const openTranscript = useApp((s) => s.openTranscript);
  const openButton = useRef<HTMLButtonElement>(null);
  const previewId = useId();
  // After Enter or Escape the keyboard user goes on from the row, not from the top of the page.
  const refocus = useRef(false);
  useEffect(() => {
    if (!editing && refocus.current) {
      refocus.current = false;
      openButton.current?.focus();
    }
  }, [editing]);
  if (editing) {
    const commit = async () => {
      const v = value.trim();
      if (v && v !== item.title) await rename(item.id, v);
      setEditing(false);
    };
    return (
      <input
        className="inline-edit"
        aria-label={`New title for ${item.title}`}
        value={value}
        // The user asked to edit: focus belongs in the field.
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            refocus.current = true;
            void commit();
          }
          if (e.key === 'Escape') {
            refocus.current = true;
            setValue(item.title);
            setEditing(false);
          }
        }}
      />
    );
  }
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'F2') {
      e.preventDefault();
      setValue(item.title);
      setEditing(true);
    }
  };
  return (
    <div className="lrow__title">
      {/* The button holds only the title, so its name "Open <title>" contains all its visible text (WCAG 2.5.3);
          the preview is its description, and the button's ::after makes the whole cell its click target. */}
      <div className="lrow__text">
        <button
          ref={openButton}
          type="button"
          className="lrow__open"
          data-open-id={item.id}
          onClick={() => openTranscript(item.id)}
          onKeyDown={onKey}
          aria-label={`Open ${item.title}`}
          aria-describedby={previewId}
          title={`${item.title}\nOpen (F2 to rename)`}
        >
          {item.title}
        </button>
        <span className="lrow__preview" id={previewId}>
          {item.preview || item.source}
        </span>
      </div>
      <Button
        size="sm"
        variant="ghost"
        icon="edit"
        className="lrow__rename"
        aria-label={`Rename ${item.title}`}
        onClick={() => {
          setValue(item.title);
          setEditing(true);
        }}
      />
    </div>
  );
}

const Row = memo(function Row({ item, index, selected }: { item: LibraryItem | undefined; index: number; selected: boolean }) {
  const toggle = useLibrary((s) => s.toggle);
  if (!item) {
    return (
      <div className="lrow lrow--loading" role="row" aria-rowindex={index + 2}>
        <div className="skeleton" />
      </div>
    );
  }
  const [label, tone] = statusLabel[item.status];
  const shown = tagsThatFit(item.tags);
  return (
    <div className={`lrow${selected ? ' lrow--selected' : ''}`} role="row" aria-rowindex={index + 2} data-testid="library-row">
      <div role="cell" className="lcell lcell--check">
        <input type="checkbox" checked={selected} onChange={(e) => toggle(item.id, e.target.checked)} aria-label={`Select ${item.title}`} />
      </div>
      <div role="cell" className="lcell lcell--title">
        <TitleCell item={item} />
      </div>
      <div role="cell" className="lcell lcell--tags" title={item.tags.length > shown ? item.tags.join(', ') : undefined}>
        {item.tags.slice(0, shown).map((t) => (
          <span key={t} className="tag" title={t}>
            {t}
          </span>
        ))}
        {item.tags.length > shown && <span className="muted">+{item.tags.length - shown}</span>}
      </div>
      <div role="cell" className="lcell lcell--num">
        {formatClock(item.durationMs)}
      </div>
      <div role="cell" className="lcell lcell--date">
        {formatDate(item.createdAt)}
      </div>
      <div role="cell" className="lcell lcell--region">
        <Badge tone={regionTone[item.region]}>{regionLabels[item.region]}</Badge>
      </div>
      <div role="cell" className="lcell lcell--status">
        <Badge tone={tone} title={item.error?.message}>
          {label}
        </Badge>
      </div>
    </div>
  );
});

const columns: Array<{ key: SortKey | null; label: string; cls: string }> = [
  { key: 'title', label: 'Title', cls: 'lcell--title' },
  { key: null, label: 'Tags', cls: 'lcell--tags' },
  { key: 'duration', label: 'Length', cls: 'lcell--num' },
  { key: 'created', label: 'Added', cls: 'lcell--date' },
  { key: null, label: 'Region', cls: 'lcell--region' },
  { key: null, label: 'Status', cls: 'lcell--status' },
];

function Header() {
  const query = useLibrary((s) => s.query);
  const setQuery = useLibrary((s) => s.setQuery);
  const total = useLibrary((s) => s.total);
  const nSelected = useLibrary((s) => Object.keys(s.selected).length);
  const nLoaded = useLibrary((s) => s.items.reduce((n, it) => (it ? n + 1 : n), 0));
  const selectAll = useLibrary((s) => s.selectAll);
  const all = total > 0 && nSelected > 0 && nSelected >= Math.min(total, nLoaded);
  const some = nSelected > 0 && !all;
  const box = useRef<HTMLInputElement>(null);
  // `indeterminate` exists only as a DOM property.
  useEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);
  return (
    <div className="lrow lrow--head" role="row" aria-rowindex={1}>
      <div role="columnheader" className="lcell lcell--check">
        <input
          ref={box}
          type="checkbox"
          aria-label="Select all loaded"
          checked={all}
          aria-checked={some ? 'mixed' : all}
          onChange={(e) => selectAll(e.target.checked)}
        />
      </div>
      {columns.map((c) => {
        const sorted = c.key !== null && query.sort === c.key;
        return (
          <div
            key={c.label}
            role="columnheader"
            className={`lcell ${c.cls}`}
            aria-sort={sorted ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined}
          >
            {c.key ? (
              <button
                type="button"
                className="sort"
                onClick={() =>
                  setQuery(sorted ? { order: query.order === 'asc' ? 'desc' : 'asc' } : { sort: c.key as SortKey, order: c.key === 'title' ? 'asc' : 'desc' })
                }
              >
                {c.label}
                {sorted && <Icon name={query.order === 'asc' ? 'up' : 'down'} size={13} />}
              </button>
            ) : (
              c.label
            )}
          </div>
        );
      })}
    </div>
  );
}

export function LibraryList() {
  const items = useLibrary((s) => s.items);
  const total = useLibrary((s) => s.total);
  const selected = useLibrary((s) => s.selected);
  const ensureRange = useLibrary((s) => s.ensureRange);
  const scroller = useRef<HTMLDivElement>(null);
  // The React Compiler is not used here; the virtualizer's functions are fresh on each render by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (i) => items[i]?.id ?? `i${i}`,
  });
  const range = virtual.getVirtualItems();
  const first = range[0]?.index ?? 0;
  const last = range[range.length - 1]?.index ?? 0;
  useEffect(() => {
    // Fetch a little beyond the screen in both directions so a steady scroll rarely meets a loading row.
    if (total > 0) ensureRange(Math.max(0, first - 40), Math.min(total - 1, last + 60));
  }, [first, last, total, ensureRange]);

  return (
    // A table, not a grid: rows are read with the screen reader's table keys; there is no grid arrow-key model to promise.
    <div className="ltable" role="table" aria-label="Library" aria-rowcount={total + 1}>
      <Header />
      <div className="ltable__scroll" ref={scroller} data-testid="library-scroll">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {range.map((v) => {
            const item = items[v.index];
            return (
              <div key={v.key} className="ltable__slot" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}>
                <Row item={item} index={v.index} selected={item ? selected[item.id] === true : false} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
