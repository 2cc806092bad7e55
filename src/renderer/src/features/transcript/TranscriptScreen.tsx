/** Reading a transcript: header with actions, the pinned player, find, the paragraphs, and details. */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { EmptyScreen } from '../../components/EmptyScreen';
import { InlineEdit } from '../../components/InlineEdit';
import { statusLabel } from '../../components/status';
import { useApp } from '../../stores/app';
import { useLibrary } from '../../stores/library';
import { toast } from '../../stores/toasts';
import { useTranscript } from '../../stores/transcript';
import { ExportDialog } from '../library/LibraryDialogs';
import { ImproveAccuracy } from '../captions/ImproveAccuracy';
import { askAbout } from '../chat/ask';
import { AddSpeakers } from './AddSpeakers';
import { DetailsPanel } from './DetailsPanel';
import { FindBar } from './FindBar';
import { blocksOf, plainText } from './paragraphs';
import { Player } from './Player';
import { TranscriptBody } from './TranscriptBody';

// Only when asked for: the subtitle editor (its waveform) and the insights dialog bring most of the shared
// schemas (zod) with them, which opening a transcript does not need (issue 29).
const SubtitlesView = lazy(() => import('../subtitles/SubtitlesView').then((m) => ({ default: m.SubtitlesView })));
const InsightsDialog = lazy(() => import('../chat/InsightsDialog').then((m) => ({ default: m.InsightsDialog })));

/** The title as the page's heading; it takes focus when a transcript opens so keyboard users start here, not at the top of the document. */
function Title({ id, title, focusKey }: { id: string; title: string; focusKey: number }) {
  const [editing, setEditing] = useState(false);
  const rename = useLibrary((s) => s.rename);
  const heading = useRef<HTMLHeadingElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => heading.current?.focus({ preventScroll: true }), [focusKey]);
  useEffect(() => {
    if (!editing && refocus.current) {
      refocus.current = false;
      button.current?.focus();
    }
  }, [editing]);
  if (editing) {
    return (
      <InlineEdit
        className="title-edit"
        label="Title"
        initial={title}
        onCancel={() => {
          refocus.current = true;
          setEditing(false);
        }}
        onCommit={async (v) => {
          if (v && v !== title && (await rename(id, v))) {
            const t = useTranscript.getState().transcript;
            if (t) useTranscript.setState({ transcript: { ...t, item: { ...t.item, title: v } } });
          }
          refocus.current = document.activeElement === document.body || document.activeElement?.classList.contains('title-edit') === true;
          setEditing(false);
        }}
      />
    );
  }
  return (
    <h1 className="transcript__title" ref={heading} tabIndex={-1}>
      <button ref={button} type="button" className="title-button" title={`${title} (click to rename)`} onClick={() => setEditing(true)}>
        {title}
      </button>
    </h1>
  );
}

export function TranscriptScreen() {
  const open = useApp((s) => s.open);
  const back = useApp((s) => s.backToLibrary);
  const findButton = useRef<HTMLButtonElement>(null);
  const openTranscript = useTranscript((s) => s.open);
  const transcript = useTranscript((s) => s.transcript);
  const loading = useTranscript((s) => s.loading);
  const error = useTranscript((s) => s.error);
  const [finding, setFinding] = useState(false);
  const [details, setDetails] = useState(true);
  const [exporting, setExporting] = useState(false);
  const [understanding, setUnderstanding] = useState(false);
  // The insights dialog stays mounted once opened (it keeps its answer), but is not loaded before.
  const [insightsUsed, setInsightsUsed] = useState(false);
  // Subtitles: the cue editor instead of the text (its own player, waveform and shortcuts).
  const [subtitlesFor, setSubtitlesFor] = useState<string | null>(null);
  const subtitles = open !== null && subtitlesFor === open.id;

  // The transcript store opens `open` itself, in the click's own turn (connectTranscript).
  const findable = transcript?.item.status === 'completed' && !subtitles;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Not behind a dialog, and not on a transcript with no text to find in.
      if (!findable || document.querySelector('dialog[open]')) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setFinding(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [findable]);

  const blocks = useMemo(() => (transcript ? blocksOf(transcript) : []), [transcript]);

  if (!open) {
    return (
      <EmptyScreen icon="library" title="No transcript open">
        <p>Pick a recording in the library to read it here.</p>
      </EmptyScreen>
    );
  }
  if (error) {
    return (
      <EmptyScreen
        icon="alert"
        title="This transcript could not be opened"
        actions={
          <>
            <Button onClick={back}>Back to the library</Button>
            <Button variant="primary" icon="retry" onClick={() => void openTranscript(open.id, open.atMs)}>
              Try again
            </Button>
          </>
        }
      >
        <p>{error.message}</p>
      </EmptyScreen>
    );
  }
  if (loading || !transcript) {
    return (
      <div className="transcript" aria-busy="true">
        <div className="transcript__header">
          <Button variant="ghost" icon="back" onClick={back}>
            Library
          </Button>
          <div className="skeleton skeleton--title" />
        </div>
      </div>
    );
  }
  const item = transcript.item;
  const done = item.status === 'completed';
  return (
    <div className={`transcript${details ? ' transcript--details' : ''}`}>
      <div className="transcript__header">
        <Button variant="ghost" icon="back" onClick={back} aria-label="Back to the library">
          Library
        </Button>
        <Title id={item.id} title={item.title} focusKey={open.nonce} />
        {!done && <Badge tone={statusLabel[item.status][1]}>{statusLabel[item.status][0]}</Badge>}
        <div className="transcript__actions">
          {item.source === 'Live session' && <ImproveAccuracy recordingId={item.id} switcher />}
          {done && item.hasAudio && transcript.speakers.length === 0 && <AddSpeakers recordingId={item.id} />}
          <Button ref={findButton} size="sm" icon="search" disabled={!done} onClick={() => setFinding(true)} aria-keyshortcuts="Control+F">
            Find
          </Button>
          <Button
            size="sm"
            icon="copy"
            disabled={!done}
            onClick={() =>
              void navigator.clipboard.writeText(plainText(transcript, blocks)).then(
                () => toast('Transcript copied.', 'ok'),
                () => toast('Copying was refused by the browser. Use Export instead.', 'error'),
              )
            }
          >
            Copy
          </Button>
          <Button size="sm" icon="download" disabled={!done} onClick={() => setExporting(true)}>
            Export…
          </Button>
          <Button size="sm" icon="chat" disabled={!done} onClick={() => void askAbout([item.id])}>
            Ask
          </Button>
          <Button
            size="sm"
            icon="spark"
            disabled={!done}
            onClick={() => {
              setInsightsUsed(true);
              setUnderstanding(true);
            }}
          >
            Understand…
          </Button>
          <Button size="sm" icon="captions" disabled={!done} aria-pressed={subtitles} onClick={() => setSubtitlesFor(subtitles ? null : (open?.id ?? null))}>
            Subtitles
          </Button>
          <Button size="sm" variant="ghost" icon="panel" aria-pressed={details} aria-label="Details panel" onClick={() => setDetails(!details)} />
        </div>
      </div>
      {done && subtitles && (
        <Suspense fallback={<p className="muted">Loading the subtitle editor…</p>}>
          <SubtitlesView id={item.id} source={item.source} />
        </Suspense>
      )}
      {/* No text and no finished audio yet: a player and its shortcuts would only be dead controls. */}
      {done && !subtitles && <Player durationMs={item.durationMs} source={item.source} />}
      {finding && done && !subtitles && (
        <FindBar
          onClose={() => {
            setFinding(false);
            findButton.current?.focus();
          }}
        />
      )}
      {!subtitles && (
        <div className="transcript__main">
          {done ? (
            <TranscriptBody transcript={transcript} blocks={blocks} />
          ) : (
            <div className="tbody tbody--pending">
              <p className="muted">
                {item.status === 'error'
                  ? 'There is no text: the transcription failed. The details panel says why and what to do.'
                  : 'The text appears here as soon as the transcription is done.'}
              </p>
            </div>
          )}
          {details && <DetailsPanel transcript={transcript} />}
        </div>
      )}
      {done && !subtitles && (
        <p className="transcript__keys muted" aria-hidden="true">
          <kbd>Space</kbd> play/pause · <kbd>←</kbd>/<kbd>→</kbd> 5 s · <kbd>J</kbd>/<kbd>L</kbd> 10 s · <kbd>K</kbd> pause · click a word to play it ·
          double-click or <kbd>E</kbd> to correct
        </p>
      )}
      <ExportDialog open={exporting} onClose={() => setExporting(false)} ids={[item.id]} title={`Export “${item.title}”`} />
      {done && insightsUsed && (
        <Suspense fallback={null}>
          <InsightsDialog open={understanding} onClose={() => setUnderstanding(false)} recordingId={item.id} title={item.title} />
        </Suspense>
      )}
    </div>
  );
}
