/**
 * The library list: virtualized rows (only what is on screen is in the DOM),
 * pages fetched as they scroll into view, sortable columns, multi-select.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LibraryItem } from '../../../../shared/library';
import { regionLabels } from '../../components/labels';
import { Badge, type Tone } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { formatClock, formatDate } from '../../components/format';
import { useApp } from '../../stores/app';
import { useLibrary, type SortKey } from '../../stores/library';

export const ROW_HEIGHT = 56;

const statusLabel: Record<LibraryItem['status'], [string, Tone]> = {
  queued: ['Waiting', 'neutral'],
  uploading: ['Uploading', 'accent'],
  submitted: ['Submitted', 'accent'],
  processing: ['Transcribing', 'accent'],
  completed: ['Ready', 'ok'],
  error: ['Failed', 'danger'],
  canceled: ['Canceled', 'neutral'],
};
const regionTone: Record<LibraryItem['region'], Tone> = { us: 'info', eu: 'info', local: 'neutral', custom: 'warn' };

function TitleCell({ item }: { item: LibraryItem }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(item.title);
  const rename = useLibrary((s) => s.rename);
  const openTranscript = useApp((s) => s.openTranscript);
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
          if (e.key === 'Enter') void commit();
          if (e.key === 'Escape') {
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
      <button type="button" className="lrow__open" onClick={() => openTranscript(item.id)} onKeyDown={onKey} aria-label={`Open ${item.title}`} title="Open (F2 to rename)">
        <span className="lrow__name">{item.title}</span>
        <span className="lrow__preview">{item.preview || item.source}</span>
      </button>
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
  return (
    <div className={`lrow${selected ? ' lrow--selected' : ''}`} role="row" aria-rowindex={index + 2} aria-selected={selected} data-testid="library-row">
      <div role="gridcell" className="lcell lcell--check">
        <input type="checkbox" checked={selected} onChange={(e) => toggle(item.id, e.target.checked)} aria-label={`Select ${item.title}`} />
      </div>
      <div role="gridcell" className="lcell lcell--title">
        <TitleCell item={item} />
      </div>
      <div role="gridcell" className="lcell lcell--tags">
        {item.tags.slice(0, 3).map((t) => (
          <span key={t} className="tag">
            {t}
          </span>
        ))}
        {item.tags.length > 3 && <span className="muted">+{item.tags.length - 3}</span>}
      </div>
      <div role="gridcell" className="lcell lcell--num">
        {formatClock(item.durationMs)}
      </div>
      <div role="gridcell" className="lcell lcell--date">
        {formatDate(item.createdAt)}
      </div>
      <div role="gridcell" className="lcell lcell--region">
        <Badge tone={regionTone[item.region]}>{regionLabels[item.region]}</Badge>
      </div>
      <div role="gridcell" className="lcell lcell--status">
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
  const selectAll = useLibrary((s) => s.selectAll);
  return (
    <div className="lrow lrow--head" role="row" aria-rowindex={1}>
      <div role="columnheader" className="lcell lcell--check">
        <input
          type="checkbox"
          aria-label="Select all loaded"
          checked={total > 0 && nSelected > 0 && nSelected >= Math.min(total, useLibrary.getState().items.filter(Boolean).length)}
          onChange={(e) => selectAll(e.target.checked)}
        />
      </div>
      {columns.map((c) => {
        const sorted = c.key !== null && query.sort === c.key;
        return (
          <div key={c.label} role="columnheader" className={`lcell ${c.cls}`} aria-sort={sorted ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined}>
            {c.key ? (
              <button
                type="button"
                className="sort"
                onClick={() => setQuery(sorted ? { order: query.order === 'asc' ? 'desc' : 'asc' } : { sort: c.key as SortKey, order: c.key === 'title' ? 'asc' : 'desc' })}
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
    <div className="ltable" role="grid" aria-label="Library" aria-rowcount={total + 1} aria-multiselectable="true">
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
