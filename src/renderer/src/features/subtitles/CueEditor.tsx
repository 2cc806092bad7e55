/**
 * The selected cue in full: its text (Ctrl+Enter or leaving the field saves;
 * Escape puts it back), its times, what rules it breaks with the fix for each,
 * and the edit commands as buttons with their shortcuts.
 */
import { useState } from 'react';
import { checkCue, commandForKey, commands, fixLabels, type CommandName } from '../../../../shared/subtitles/index';
import { Button } from '../../components/Button';
import { currentProfile, useSubtitles } from '../../stores/subtitles';
import { cueTime, parseCueTime } from './time';

const editButtons: [CommandName, string][] = [
  ['split', 'Split'],
  ['merge', 'Merge with next'],
  ['insert', 'Insert'],
  ['delete', 'Delete'],
  ['startAtPlayhead', 'Start at playhead'],
  ['endAtPlayhead', 'End at playhead'],
  ['shiftEarlier', '−100 ms'],
  ['shiftLater', '+100 ms'],
];

function TimeField({ label, value, onCommit }: { label: string; value: number; onCommit(ms: number): void }) {
  const [draft, setDraft] = useState(cueTime(value));
  const [bad, setBad] = useState(false);
  // A new time from elsewhere starts a fresh draft, in the same input (a remount per edit cost the frame a new field's layout and text shaping).
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(cueTime(value));
    setBad(false);
  }
  const commit = () => {
    const ms = parseCueTime(draft);
    if (ms === null) return setBad(true);
    setBad(false);
    if (ms !== value) onCommit(ms);
  };
  return (
    <label className="cue-editor__time">
      <span>{label}</span>
      <input
        value={draft}
        aria-invalid={bad || undefined}
        aria-describedby={bad ? `${label}-err` : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      {bad && (
        <span id={`${label}-err`} className="field__error">
          Type a time like 1:02.500
        </span>
      )}
    </label>
  );
}

export function CueEditor({ textRef, onShift }: { textRef: React.RefObject<HTMLTextAreaElement | null>; onShift(): void }) {
  const index = useSubtitles((s) => s.selection[0] ?? -1);
  const count = useSubtitles((s) => s.selection.length);
  const cue = useSubtitles((s) => s.cues[s.selection[0] ?? -1]);
  const cues = useSubtitles((s) => s.cues);
  const profile = useSubtitles(currentProfile);
  const run = useSubtitles((s) => s.run);
  if (!cue) return <section className="cue-editor cue-editor--empty muted">No cue selected. Pick one in the list or on the waveform.</section>;

  const issues = checkCue(cues, index, profile);
  const retime = (start: number, end: number) => run('retime', { index, start, end });

  return (
    <section className="cue-editor" aria-label={`Cue ${index + 1}`}>
      <div className="cue-editor__head">
        <h2 className="cue-editor__title">
          Cue {index + 1}
          {count > 1 && <span className="muted"> (and {count - 1} more selected)</span>}
        </h2>
        <TimeField label="Start" value={cue.start} onCommit={(ms) => retime(ms, Math.max(ms + 100, cue.end))} />
        <TimeField label="End" value={cue.end} onCommit={(ms) => retime(cue.start, ms)} />
      </div>
      <CueText
        index={index}
        text={cue.text}
        textRef={textRef}
        help={`${profile.maxLines} ${profile.maxLines === 1 ? 'line' : 'lines'} of up to ${profile.maxCharsPerLine} characters.`}
      />
      {issues.length > 0 && (
        <ul className="issues" aria-label="Rules this cue breaks">
          {issues.map((i) => (
            <li key={i.rule + i.message} className={`issue issue--${i.severity}`}>
              <span>{i.message}</span>
              {i.fix && (
                <Button size="sm" variant="ghost" onClick={() => run('fix', { index, fix: i.fix! })}>
                  {fixLabels[i.fix]}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="cue-editor__actions" role="toolbar" aria-label="Cue commands">
        {editButtons.map(([name, label]) => {
          const shortcut = commands[name].shortcut;
          return (
            <Button
              key={name}
              size="sm"
              onClick={() => run(name as 'delete')}
              aria-keyshortcuts={shortcut?.replace('←', 'ArrowLeft').replace('→', 'ArrowRight').replace('[', 'BracketLeft').replace(']', 'BracketRight')}
              title={shortcut ? `${commands[name].label} (${shortcut})` : commands[name].label}
            >
              {label}
            </Button>
          );
        })}
        <Button size="sm" onClick={onShift} title="Shift the selected cues, or all of them, by any amount">
          Shift…
        </Button>
      </div>
    </section>
  );
}

/** The cue's text as typed; another cue or an edit from elsewhere (undo, a fix) starts a fresh draft in the same field. */
function CueText({ index, text, textRef, help }: { index: number; text: string; textRef: React.RefObject<HTMLTextAreaElement | null>; help: string }) {
  const run = useSubtitles((s) => s.run);
  const setCaret = useSubtitles((s) => s.setCaret);
  const [draft, setDraft] = useState(text);
  const [shown, setShown] = useState({ index, text });
  if (shown.index !== index || shown.text !== text) {
    setShown({ index, text });
    setDraft(text);
  }
  const commitText = (): void => {
    if (draft !== text) run('editText', { index, text: draft });
  };
  return (
    <>
      <label className="sr-only" htmlFor="cue-text">
        Text of cue {index + 1}
      </label>
      <textarea
        id="cue-text"
        ref={textRef}
        className="cue-editor__text"
        rows={3}
        value={draft}
        spellCheck
        onChange={(e) => setDraft(e.target.value)}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onBlur={commitText}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            commitText();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            setDraft(text);
          } else if (commandForKey(e)) {
            // A command on this cue works on the text as typed so far.
            setCaret(e.currentTarget.selectionStart);
            commitText();
          }
        }}
        aria-describedby="cue-text-help"
      />
      <p id="cue-text-help" className="muted cue-editor__help">
        <kbd>Ctrl</kbd>+<kbd>Enter</kbd> saves the text, <kbd>Esc</kbd> puts it back. {help}
      </p>
    </>
  );
}
