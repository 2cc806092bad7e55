/**
 * The Subtitles view of a transcript: toolbar (profile, rules check, undo,
 * import/export), the player (a video shows the current cue over it), the
 * waveform timeline, the virtualized cue list and the selected cue's editor.
 * Keys: each runs its command of the registry (shared/subtitles/commands.ts):
 * the edits, and undo, redo, loop (Alt+L) and play/pause (Space).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { cueDisplayText, keyCommandFor, loopCommand, redoCommand, undoCommand, type EditorControls } from '../../../../shared/subtitles/index';
import { mediaSrc } from '../../bridge';
import { Button } from '../../components/Button';
import { formatClock } from '../../components/format';
import { typingIn } from '../../components/shortcuts';
import { useAfterPaint } from '../../components/useAfterPaint';
import { readPicked } from '../../lib/subtitleFile';
import { useApp } from '../../stores/app';
import { checkAll, cueAt, currentProfile, playhead, useSubtitles } from '../../stores/subtitles';
import { useTranscript } from '../../stores/transcript';
import { CueEditor } from './CueEditor';
import { CueList } from './CueList';
import { ExportSubtitlesDialog } from './ExportSubtitlesDialog';
import { ProfileDialog } from './ProfileDialog';
import { ShiftDialog } from './ShiftDialog';
import { SyncDialog } from './SyncDialog';
import { useSubtitleReview } from './useSubtitleReview';
import { Waveform } from './Waveform';

const VIDEO = /\.(mp4|m4v|mov|mkv|webm|avi|wmv|mpe?g|ogv)$/i;

function RulesSummary() {
  const cues = useSubtitles((s) => s.cues);
  const profile = useSubtitles(currentProfile);
  // Checking 5,000 cues waits until the edit has been drawn.
  const checked = useAfterPaint(cues);
  const issues = useMemo(() => checkAll(checked, profile), [checked, profile]);
  const errors = issues.filter((i) => i.severity === 'error');
  const fixable = errors.filter((i) => i.fix !== null).length;
  const run = useSubtitles((s) => s.run);
  const select = useSubtitles((s) => s.select);
  return (
    <div className="rules" role="status" aria-live="polite">
      {errors.length === 0 ? (
        <span className="rules__ok">Every cue meets {profile.name}.</span>
      ) : (
        <>
          <span className="rules__bad">
            {errors.length} {errors.length === 1 ? 'problem' : 'problems'} by {profile.name}
          </span>
          <Button size="sm" variant="ghost" onClick={() => select(errors[0]!.cue)}>
            Go to the first
          </Button>
          {fixable > 0 && (
            <Button size="sm" onClick={() => run('fixAll')}>
              Fix all
            </Button>
          )}
        </>
      )}
    </div>
  );
}

/** How long the selection rests before the playhead moves to it. */
const SEEK_AFTER_MS = 120;

/** The playhead's move to the selected cue, waiting for the selection to rest (see MediaPane). */
const pendingSeek = {
  timer: 0 as ReturnType<typeof setTimeout> | 0,
  run: (): void => undefined,
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SEEK_AFTER_MS);
  },
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = 0;
  },
  /** Moves it now if one is waiting (before playing, so play starts at the selected cue). */
  flush(): void {
    if (!this.timer) return;
    this.cancel();
    this.run();
  },
};

/** The media element, the current cue drawn over a video, and play/loop following the selection. */
function MediaPane({ onMedia, video }: { onMedia(el: HTMLMediaElement | null): void; video: boolean }) {
  const mediaUrl = useTranscript((s) => s.mediaUrl);
  const src = mediaSrc(mediaUrl);
  const ref = useRef<HTMLMediaElement | null>(null);
  const [now, setNow] = useState(0);
  const [paused, setPaused] = useState(true);
  const playingCue = useSubtitles((s) => (s.playing >= 0 ? s.cues[s.playing] : undefined));

  /** The frame loop that follows the audio; it runs only while playing, so an idle view draws no frames. */
  const loop = useRef(0);
  /** Reads where the media is: the playhead, the cue under it, the clock; while playing, again next frame. */
  const follow = useRef(() => {});
  useEffect(() => {
    follow.current = () => {
      const a = ref.current;
      if (!a) return;
      const ms = a.currentTime * 1000;
      playhead.set(ms);
      const s = useSubtitles.getState();
      const sel = s.cues[s.selection[0] ?? -1];
      // Loop the selected cue: back to its start when it ends.
      if (s.loop && sel && !a.paused && ms >= sel.end) a.currentTime = sel.start / 1000;
      s.setPlaying(cueAt(s.cues, ms));
      setNow((n) => (Math.abs(n - ms) > 200 ? ms : n));
      loop.current = a.paused ? 0 : requestAnimationFrame(follow.current);
    };
    // Selecting another cue moves the playhead to it (unless playing), so Space plays from there. The seek waits until the
    // selection rests: a seek redraws the waveform's cursor and progress and may scroll it, which an edit's frame or a held
    // arrow key should not pay for each time (play flushes it first).
    const unsub = useSubtitles.subscribe((s, prev) => {
      if (s.selection[0] !== prev.selection[0]) pendingSeek.schedule();
      // An edit may have moved the cue under a paused playhead, or its index.
      if (s.cues !== prev.cues && !loop.current) s.setPlaying(cueAt(s.cues, playhead.get()));
    });
    pendingSeek.run = () => {
      const a = ref.current;
      const s = useSubtitles.getState();
      const at = s.cues[s.selection[0] ?? -1]?.start;
      if (a && a.paused && at !== undefined) a.currentTime = at / 1000;
    };
    return () => {
      cancelAnimationFrame(loop.current);
      loop.current = 0;
      follow.current = () => {};
      unsub();
      pendingSeek.cancel();
      pendingSeek.run = () => undefined;
    };
  }, []);
  /** Once now, and every frame after that while playing. */
  const followNow = () => {
    cancelAnimationFrame(loop.current);
    follow.current();
  };

  if (!src)
    return (
      <p className="muted sub-media__none">
        There is no audio for this recording, so it cannot be played here. Cues can still be edited and retimed by typing.
      </p>
    );
  const props = {
    src,
    preload: 'auto' as const,
    'data-testid': 'subtitle-media',
    ref: (el: HTMLMediaElement | null) => {
      ref.current = el;
      onMedia(el);
    },
    // Someone moved the playhead (a click on the waveform, the keyboard): that wins over a move still waiting for the selection.
    onSeeking: () => pendingSeek.cancel(),
    onSeeked: followNow,
    // While playing, the frame loop already follows; paused, a time change (a seek by the browser, the end) is read once.
    onTimeUpdate: () => {
      if (!loop.current) followNow();
    },
    onLoadedMetadata: followNow,
    onPlay: () => {
      setPaused(false);
      followNow();
    },
    onPause: () => {
      setPaused(true);
      followNow();
    },
  };
  return (
    <div className={`sub-media${video ? ' sub-media--video' : ''}`}>
      {video ? (
        <div className="sub-media__frame">
          <video {...props} />
          {playingCue && (
            <div className="sub-media__cue" aria-hidden="true">
              {cueDisplayText(playingCue.text)}
            </div>
          )}
        </div>
      ) : (
        <audio {...props} />
      )}
      <div className="sub-media__controls">
        <Button
          variant="primary"
          icon={paused ? 'play' : 'pause'}
          aria-label={paused ? 'Play (space)' : 'Pause (space)'}
          onClick={() => {
            const a = ref.current;
            pendingSeek.flush();
            if (a) void (a.paused ? a.play() : a.pause());
          }}
        />
        <span className="player__time">{formatClock(now)}</span>
        {!video && (
          <span className="sub-media__line" aria-live="off">
            {playingCue ? cueDisplayText(playingCue.text).replace(/\n/g, ' ') : '\u00a0'}
          </span>
        )}
      </div>
    </div>
  );
}

/** What the view commands (undo, redo, loop, play/pause) act on: the store's history and loop, and the media element. */
function controls(s: ReturnType<typeof useSubtitles.getState>, media: HTMLMediaElement | null): EditorControls {
  return {
    undo: () => s.undo(),
    redo: () => s.redo(),
    toggleLoop: () => s.setLoop(!s.loop),
    togglePlay() {
      if (!media) return false;
      pendingSeek.flush();
      const sel = s.cues[s.selection[0] ?? -1];
      if (media.paused && s.loop && sel) media.currentTime = sel.start / 1000;
      void (media.paused ? media.play() : media.pause());
      return true;
    },
  };
}

/** Its own component: the view around it does not re-render on every edit. */
function UndoRedo() {
  const undoLabel = useSubtitles((s) => s.undoStack[s.undoStack.length - 1]?.label);
  const redoLabel = useSubtitles((s) => s.redoStack[0]?.label);
  return (
    <>
      <Button
        size="sm"
        icon="back"
        disabled={!undoLabel}
        onClick={() => useSubtitles.getState().undo()}
        aria-keyshortcuts="Control+Z"
        title={undoLabel ? `Undo ${undoLabel} (${undoCommand.shortcut})` : 'Nothing to undo'}
      >
        Undo
      </Button>
      <Button
        size="sm"
        disabled={!redoLabel}
        onClick={() => useSubtitles.getState().redo()}
        aria-keyshortcuts="Control+Shift+Z"
        title={redoLabel ? `Redo ${redoLabel} (${redoCommand.shortcut})` : 'Nothing to redo'}
      >
        Redo
      </Button>
    </>
  );
}

function SavingStatus() {
  const saving = useSubtitles((s) => s.saving);
  const edited = useSubtitles((s) => s.edited);
  return (
    <span className="subtitles__saving muted" aria-live="polite">
      {saving ? 'Saving…' : edited ? 'Saved' : ''}
    </span>
  );
}

export function SubtitlesView({ id, source }: { id: string; source: string }) {
  const open = useSubtitles((s) => s.open);
  const loading = useSubtitles((s) => s.loading);
  const error = useSubtitles((s) => s.error);
  const profiles = useSubtitles((s) => s.profiles);
  const profileId = useSubtitles((s) => s.profileId);
  const setProfile = useSubtitles((s) => s.setProfile);
  const loop = useSubtitles((s) => s.loop);
  const edited = useSubtitles((s) => s.edited);
  const [media, setMedia] = useState<HTMLMediaElement | null>(null);
  const [exporting, setExporting] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const [shifting, setShifting] = useState(false);
  const [profiling, setProfiling] = useState(false);
  const show = useApp((s) => s.show);
  const [confirmReset, setConfirmReset] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const text = useRef<HTMLTextAreaElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const video = VIDEO.test(source);
  // Stable, so the memoized cue rows do not re-render when this view does.
  const editText = useCallback(() => text.current?.focus(), []);
  const shift = useCallback(() => setShifting(true), []);
  // Review's jumps (F8 in the header) select the word's cue, play around it and put the caret on it.
  useSubtitleReview(media, text);

  useEffect(() => {
    void open(id);
  }, [id, open]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        document.querySelector('dialog[open]') ||
        (!root.current?.contains(document.activeElement ?? document.body) && document.activeElement !== document.body)
      )
        return;
      // Find the command for this key, run it: edits through the store, the rest against the view's controls.
      const target = e.target as HTMLElement | null;
      const found = keyCommandFor({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        shiftKey: e.shiftKey,
        typing: typingIn(target),
        onButton: target?.tagName === 'BUTTON',
      });
      if (!found) return;
      const s = useSubtitles.getState();
      if (found.kind === 'edit') s.runCommand(found.command);
      else if (!found.command.run(controls(s, media))) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [media]);

  if (error)
    return (
      <div className="banner banner--error" role="alert">
        The subtitles could not be opened: {error}{' '}
        <Button size="sm" onClick={() => void open(id)}>
          Try again
        </Button>
      </div>
    );

  return (
    <div className="subtitles" ref={root} aria-busy={loading || undefined}>
      <div className="subtitles__toolbar" role="toolbar" aria-label="Subtitles">
        <label className="subtitles__profile">
          <span>Rules</span>
          <select value={profileId} onChange={(e) => void setProfile(e.target.value)}>
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <Button size="sm" variant="ghost" onClick={() => setProfiling(true)}>
          Save profile…
        </Button>
        <UndoRedo />
        <Button
          size="sm"
          variant="ghost"
          aria-pressed={loop}
          onClick={() => useSubtitles.getState().setLoop(!loop)}
          aria-keyshortcuts="Alt+L"
          title={`${loopCommand.label} (${loopCommand.shortcut})`}
        >
          Loop cue
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setSyncing(true)}>
          Sync…
        </Button>
        <Button size="sm" variant="ghost" disabled={!edited} onClick={() => setConfirmReset(true)}>
          Reset to generated
        </Button>
        <Button size="sm" icon="upload" onClick={() => fileInput.current?.click()}>
          Import…
        </Button>
        <Button size="sm" variant="ghost" onClick={() => show({ kind: 'translateSubtitles', recordingId: id })}>
          Translate…
        </Button>
        <Button size="sm" icon="download" onClick={() => setExporting(true)}>
          Export…
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".srt,.vtt,text/vtt,application/x-subrip"
          hidden
          aria-label="Subtitle file to import"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) show({ kind: 'importSubtitles', file: await readPicked(f), onto: true });
          }}
        />
      </div>
      {confirmReset && (
        <div className="banner banner--warn" role="alert">
          Rebuild every cue from the words by {profiles.find((p) => p.id === profileId)?.name}? Corrected words and speaker names are kept; cue edits are
          replaced (Undo brings them back).{' '}
          <Button
            size="sm"
            variant="primary"
            onClick={() => {
              useSubtitles.getState().resetToGenerated();
              setConfirmReset(false);
            }}
          >
            Reset
          </Button>{' '}
          <Button size="sm" onClick={() => setConfirmReset(false)}>
            Cancel
          </Button>
        </div>
      )}
      <div className="subtitles__status">
        <RulesSummary />
        <SavingStatus />
      </div>
      <div className="subtitles__top">
        <MediaPane onMedia={setMedia} video={video} />
        <CueEditor textRef={text} onShift={shift} />
      </div>
      {media && <Waveform media={media} id={id} />}
      <CueList onEdit={editText} />
      <p className="transcript__keys muted" aria-hidden="true">
        <kbd>↑</kbd>/<kbd>↓</kbd> cue · <kbd>Enter</kbd> edit text · <kbd>Space</kbd> play · <kbd>Alt</kbd>+<kbd>S</kbd> split · <kbd>Alt</kbd>+<kbd>M</kbd>{' '}
        merge · <kbd>Alt</kbd>+<kbd>N</kbd> insert · <kbd>Alt</kbd>+<kbd>Del</kbd> delete · <kbd>Alt</kbd>+<kbd>←</kbd>/<kbd>→</kbd> shift 100 ms (with{' '}
        <kbd>Shift</kbd>: all) · <kbd>Alt</kbd>+<kbd>[</kbd>/<kbd>]</kbd> start/end at playhead · <kbd>Alt</kbd>+<kbd>L</kbd> loop · <kbd>Ctrl</kbd>+
        <kbd>Z</kbd> undo
      </p>
      <ExportSubtitlesDialog open={exporting} onClose={() => setExporting(false)} id={id} />
      {syncing && <SyncDialog open onClose={() => setSyncing(false)} />}
      {shifting && <ShiftDialog open onClose={() => setShifting(false)} />}
      {profiling && <ProfileDialog open onClose={() => setProfiling(false)} />}
    </div>
  );
}
