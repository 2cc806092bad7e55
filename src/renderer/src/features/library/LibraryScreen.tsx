/** The library: add files (drop, pick, URL), the queue, search, and every transcript. */
import { useEffect, useRef, useState } from 'react';
import type { TranscriptStatus } from '../../../../shared/library';
import { Button } from '../../components/Button';
import { notConnectedHelp } from '../../components/connectionText';
import { EmptyScreen } from '../../components/EmptyScreen';
import { Icon } from '../../components/Icon';
import { useApp } from '../../stores/app';
import { useChat } from '../../stores/chat';
import { useKeys } from '../../stores/keys';
import { useLibrary } from '../../stores/library';
import { useSearch } from '../../stores/search';
import { useSettings } from '../../stores/settings';
import { openFilePicker } from './DropOverlay';
import { engineNote } from './engineNote';
import { AddUrlDialog, DeleteDialog, TagDialog } from './LibraryDialogs';
import { LibraryList } from './LibraryList';
import { PersonFilter } from './PersonFilter';
import { QueuePanel } from './QueuePanel';
import { SearchResults } from './SearchResults';

const statusFilters: Array<{ label: string; value: TranscriptStatus[] | null }> = [
  { label: 'All statuses', value: null },
  { label: 'Ready', value: ['completed'] },
  { label: 'In progress', value: ['queued', 'uploading', 'submitted', 'processing'] },
  { label: 'Failed', value: ['error', 'canceled'] },
];

/**
 * Puts focus back on the library when the control that had it went away
 * (selection toolbar replaced, a dialog's opener deleted): the row to return
 * to when known, else the first row, else the filter field.
 */
function rescueFocus(openId: string | null = null, tries = 20): void {
  requestAnimationFrame(() => {
    // Someone (the user, a dialog) already put focus somewhere: leave it there.
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const row = openId ? document.querySelector<HTMLElement>(`[data-open-id="${CSS.escape(openId)}"]`) : null;
    // The list loads its rows asynchronously after Back: wait a little for the row.
    if (!row && openId && tries > 0) return rescueFocus(openId, tries - 1);
    const target =
      row ??
      document.querySelector<HTMLElement>('.lrow .lcell--check input') ??
      document.querySelector<HTMLElement>('.toolbar__filter') ??
      document.querySelector<HTMLElement>('.library h1');
    target?.focus();
  });
}

function EngineBanner() {
  const settings = useSettings((s) => s.settings);
  const key = useKeys((s) => s.status);
  const setScreen = useApp((s) => s.setScreen);
  const update = useSettings((s) => s.update);
  const note = engineNote(settings, key);
  if (!note.problem) return null;
  return (
    // Not role="alert": it stays on screen, and an alert would be announced again on every visit.
    <div className="banner banner--warn">
      <Icon name="key" />
      <span>{note.text}</span>
      <span className="banner__actions">
        <Button size="sm" variant="primary" onClick={() => setScreen('settings')}>
          Add a key
        </Button>
        <Button size="sm" onClick={() => void update({ region: 'local' })}>
          Stay on the local engine
        </Button>
      </span>
    </div>
  );
}

function Toolbar({ onDialog }: { onDialog(d: 'tag' | 'export' | 'delete'): void }) {
  const query = useLibrary((s) => s.query);
  const setQuery = useLibrary((s) => s.setQuery);
  const tags = useLibrary((s) => s.tags);
  const total = useLibrary((s) => s.total);
  const nSelected = useLibrary((s) => Object.keys(s.selected).length);
  const selectAll = useLibrary((s) => s.selectAll);
  const statusIndex = Math.max(
    0,
    statusFilters.findIndex((f) => JSON.stringify(f.value) === JSON.stringify(query.status)),
  );
  if (nSelected > 0) {
    return (
      <div className="toolbar toolbar--selection" role="toolbar" aria-label="Selection">
        <span className="toolbar__count">{nSelected} selected</span>
        <Button size="sm" icon="chat" onClick={() => void useChat.getState().askAbout(Object.keys(useLibrary.getState().selected))}>
          Ask
        </Button>
        <Button size="sm" icon="tag" onClick={() => onDialog('tag')}>
          Tag…
        </Button>
        <Button size="sm" icon="download" onClick={() => onDialog('export')}>
          Export…
        </Button>
        <Button size="sm" icon="trash" variant="danger" onClick={() => onDialog('delete')}>
          Delete…
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            selectAll(false);
            rescueFocus();
          }}
        >
          Clear selection
        </Button>
      </div>
    );
  }
  return (
    <div className="toolbar" role="toolbar" aria-label="Filter the library">
      <input
        type="search"
        className="toolbar__filter"
        placeholder="Filter by title"
        aria-label="Filter by title"
        value={query.title}
        onChange={(e) => setQuery({ title: e.target.value })}
      />
      <select aria-label="Filter by status" value={statusIndex} onChange={(e) => setQuery({ status: statusFilters[Number(e.target.value)]?.value ?? null })}>
        {statusFilters.map((f, i) => (
          <option key={f.label} value={i}>
            {f.label}
          </option>
        ))}
      </select>
      <select aria-label="Filter by tag" value={query.tag ?? ''} onChange={(e) => setQuery({ tag: e.target.value || null })}>
        <option value="">All tags</option>
        {tags.map((t) => (
          <option key={t.name} value={t.name}>
            {t.name} ({t.count})
          </option>
        ))}
      </select>
      <span className="toolbar__count muted" aria-live="polite">
        {total.toLocaleString()} {total === 1 ? 'recording' : 'recordings'}
      </span>
    </div>
  );
}

function NewUserEmpty({ onUrl, onSubtitles }: { onUrl(): void; onSubtitles(): void }) {
  const settings = useSettings((s) => s.settings);
  const key = useKeys((s) => s.status);
  const note = engineNote(settings, key);
  return (
    <EmptyScreen
      icon="library"
      title="Your library"
      actions={
        <>
          <Button variant="primary" icon="plus" onClick={openFilePicker}>
            Add files
          </Button>
          <Button icon="link" onClick={onUrl}>
            Add from URL
          </Button>
          <Button icon="captions" onClick={onSubtitles}>
            Import subtitles
          </Button>
        </>
      }
    >
      <p>Every recording you transcribe lands here, searchable with no network.</p>
      <ul className="ways">
        <li>
          <Icon name="upload" />
          <span>
            <strong>Drop</strong> audio or video files, or whole folders, anywhere on this window.
          </span>
        </li>
        <li>
          <Icon name="folder" />
          <span>
            <strong>Pick</strong> files with “Add files”.
          </span>
        </li>
        <li>
          <Icon name="link" />
          <span>
            <strong>Paste a link</strong> to a public recording with “Add from URL”.
          </span>
        </li>
      </ul>
      <p className="engine-note" data-testid="engine-note">
        <Icon name={settings.region === 'local' ? 'cpu' : 'cloud'} size={16} />
        {note.text}
      </p>
    </EmptyScreen>
  );
}

export function LibraryScreen() {
  const loaded = useLibrary((s) => s.loaded);
  const total = useLibrary((s) => s.total);
  const filtered = useLibrary((s) => s.query.title !== '' || s.query.status !== null || s.query.tag !== null);
  const error = useLibrary((s) => s.error);
  const selectedIds = useLibrary((s) => s.selected);
  const connection = useApp((s) => s.connection);
  const searchQuery = useSearch((s) => s.query);
  const setSearch = useSearch((s) => s.setQuery);
  // The screen's own dialogs; Export and Import subtitles are app-wide (stores/app `show`, drawn by DialogHost).
  const [dialog, setDialog] = useState<'url' | 'tag' | 'delete' | null>(null);
  const show = useApp((s) => s.show);
  const subtitleInput = useRef<HTMLInputElement>(null);
  const ids = Object.keys(selectedIds);
  const empty = loaded && total === 0 && !filtered;
  const searching = searchQuery.trim() !== '';
  // Not connected: search and adding files cannot work, so they are not offered (the screen below says why).
  const unreachable = !loaded && connection === 'closed';
  const closeDialog = () => {
    setDialog(null);
    rescueFocus();
  };

  // Back from a transcript: focus returns to the row (or search hit) that opened it.
  const returned = useRef(false);
  useEffect(() => {
    if (returned.current) return;
    returned.current = true;
    const id = useApp.getState().returnFocusTo;
    if (!id) return;
    useApp.setState({ returnFocusTo: null });
    rescueFocus(id);
  }, []);

  return (
    <div className="library">
      {/* An empty library has its own title and actions below; a search box over nothing is noise. */}
      {!(empty && !searching) && (
        <header className="library__header">
          <h1 tabIndex={-1}>Library</h1>
          {!unreachable && (
            <>
              <div className="library__search">
                <Icon name="search" size={16} />
                <input
                  type="search"
                  placeholder="Search every transcript"
                  aria-label="Search every transcript"
                  value={searchQuery}
                  onChange={(e) => setSearch(e.target.value)}
                  onKeyDown={(e) => e.key === 'Escape' && setSearch('')}
                />
              </div>
              <PersonFilter />
              <div className="library__actions">
                <Button icon="captions" onClick={() => subtitleInput.current?.click()}>
                  Import subtitles…
                </Button>
                <Button icon="link" onClick={() => setDialog('url')}>
                  Add from URL
                </Button>
                <Button variant="primary" icon="plus" onClick={openFilePicker}>
                  Add files
                </Button>
              </div>
            </>
          )}
        </header>
      )}
      <EngineBanner />
      {error && (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      <QueuePanel />
      {searching ? (
        <SearchResults />
      ) : unreachable ? (
        <EmptyScreen icon="alert" title="Not connected to Verbatim">
          <p>This page could not reach Verbatim, so the library cannot be shown.</p>
          <p className="muted">{notConnectedHelp}</p>
        </EmptyScreen>
      ) : !loaded ? (
        <div className="library__loading" aria-busy="true" aria-label="Loading the library" />
      ) : empty ? (
        <NewUserEmpty onUrl={() => setDialog('url')} onSubtitles={() => subtitleInput.current?.click()} />
      ) : (
        <>
          <Toolbar onDialog={(d) => (d === 'export' ? show({ kind: 'export', ids }) : setDialog(d))} />
          <LibraryList />
        </>
      )}
      <input
        ref={subtitleInput}
        type="file"
        hidden
        accept=".srt,.vtt,text/vtt,application/x-subrip"
        aria-label="Subtitle file to import"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          // Loaded when a file is picked: the subtitle reader (with the HTML entity table) is not part of the start.
          if (f) show({ kind: 'importSubtitles', file: await (await import('../../lib/subtitleFile')).readPicked(f), onto: false });
        }}
      />
      <AddUrlDialog open={dialog === 'url'} onClose={closeDialog} />
      <TagDialog open={dialog === 'tag'} onClose={closeDialog} ids={ids} />
      <DeleteDialog open={dialog === 'delete'} onClose={closeDialog} ids={ids} />
    </div>
  );
}
