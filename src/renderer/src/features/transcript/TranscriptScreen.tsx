/** Reading a transcript: header with actions, the pinned player, find, the paragraphs, and details; or, on the Subtitles screen, the cue editor under the same header. */
import { Suspense, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { EmptyScreen } from '../../components/EmptyScreen';
import { InlineEdit } from '../../components/InlineEdit';
import { statusLabel } from '../../components/status';
import { useApp } from '../../stores/app';
import { useChat } from '../../stores/chat';
import { useLibrary } from '../../stores/library';
import { toast } from '../../stores/toasts';
import { useTranscript } from '../../stores/transcript';
import { AddSpeakers } from './AddSpeakers';
import { SpeakerGroups } from './SpeakerGroups';
import { CorrectionOffer } from './CorrectionOffer';
import { DetailsPanel } from './DetailsPanel';
import { FindBar } from './FindBar';
import { blocksOf, plainText } from './paragraphs';
import { Player } from './Player';
import { ReviewBar } from './ReviewBar';
import './review.css';
import { TranscriptBody } from './TranscriptBody';
import { TranslationToggle } from './TranslationToggle';
import { Versions } from './Versions';

/** The Subtitles screen's editor, which App hands in (lazily loaded: it brings most of the shared schemas, issue 29). */
export type SubtitlesEditor = ComponentType<{ id: string; source: string }>;

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

/** `editor`: the cue editor, given on the Subtitles screen (App composes the two features; neither imports the other). */
export function TranscriptScreen({ editor: Editor = null }: { editor?: SubtitlesEditor | null }) {
  const open = useApp((s) => s.open);
  const back = useApp((s) => s.backToLibrary);
  const setScreen = useApp((s) => s.setScreen);
  const show = useApp((s) => s.show);
  const findButton = useRef<HTMLButtonElement>(null);
  const openTranscript = useTranscript((s) => s.open);
  const transcript = useTranscript((s) => s.transcript);
  const loading = useTranscript((s) => s.loading);
  const error = useTranscript((s) => s.error);
  const [finding, setFinding] = useState(false);
  const [details, setDetails] = useState(true);
  // The Subtitles screen: the cue editor instead of the text (its own player, waveform and shortcuts).
  const subtitles = Editor !== null;

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
          {/* Find and Copy show their icons alone (named for screen readers, with a tooltip), so the actions keep one row beside the title at 1280 px. */}
          <Button
            ref={findButton}
            size="sm"
            icon="search"
            disabled={!done}
            onClick={() => setFinding(true)}
            aria-keyshortcuts="Control+F"
            aria-label="Find"
            title="Find in the transcript (Ctrl+F)"
          />
          <Button
            size="sm"
            icon="copy"
            aria-label="Copy"
            title="Copy the transcript"
            disabled={!done}
            onClick={() =>
              void navigator.clipboard.writeText(plainText(transcript, blocks)).then(
                () => toast('Transcript copied.', 'ok'),
                () => toast('Copying was refused by the browser. Use Export instead.', 'error'),
              )
            }
          />
          <Button size="sm" icon="download" disabled={!done} onClick={() => show({ kind: 'export', ids: [item.id], title: `Export “${item.title}”` })}>
            Export…
          </Button>
          <Button size="sm" icon="chat" disabled={!done} onClick={() => void useChat.getState().askAbout([item.id])}>
            Ask
          </Button>
          <Button size="sm" icon="spark" disabled={!done} onClick={() => show({ kind: 'insights', recordingId: item.id, title: item.title })}>
            Understand…
          </Button>
          <Button size="sm" icon="captions" disabled={!done} aria-pressed={subtitles} onClick={() => setScreen(subtitles ? 'transcript' : 'subtitles')}>
            Subtitles
          </Button>
          <Button size="sm" variant="ghost" icon="panel" aria-pressed={details} aria-label="Details panel" onClick={() => setDetails(!details)} />
        </div>
      </div>
      {/* The transcript's own tools (versions, speakers, review) on a row of their own under the document actions; empty, it takes no room. */}
      <div className="transcript__tools" role="toolbar" aria-label="Speakers and review">
        {item.source === 'Live session' && <Versions recordingId={item.id} />}
        {done && item.source === 'Live session' && <TranslationToggle recordingId={item.id} />}
        {done && item.hasAudio && transcript.speakers.length === 0 && <AddSpeakers recordingId={item.id} />}
        {done && transcript.speakers.length > 0 && <SpeakerGroups recordingId={item.id} transcriptId={transcript.transcriptId} />}
        {done && <ReviewBar transcript={transcript} />}
      </div>
      {done && Editor && (
        <Suspense fallback={<p className="muted">Loading the subtitle editor…</p>}>
          <Editor id={item.id} source={item.source} />
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
      {done && !subtitles && <CorrectionOffer recordingId={item.id} />}
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
          double-click or <kbd>E</kbd> to correct · <kbd>F8</kbd> next doubtful word, <kbd>Enter</kbd> accepts it
        </p>
      )}
    </div>
  );
}
