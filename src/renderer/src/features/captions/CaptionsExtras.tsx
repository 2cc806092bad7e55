/**
 * Beside the captions: a translated line under each final turn in a language
 * the user picks (and where its text goes), and "What did I miss?", a summary
 * of the last minutes that cites its moments; a cited moment plays from there.
 */
import { useState } from 'react';
import { CAPTION_LANGUAGES, languageName, type MissedSummary, type TranslationStatus } from '../../../../shared/captions-extras';
import { Button } from '../../components/Button';
import { chatModelName, type NamedModel } from '../../lib/modelName';
import { useCaptions } from '../../stores/captions';
import { useChat } from '../../stores/chat';
import { useSettings } from '../../stores/settings';
import './captions-rewind.css';

/** Where the text of each line goes, in the user's words. */
function whereText(t: TranslationStatus, listed: readonly NamedModel[]): string {
  const by = t.model ? chatModelName(t.model, listed) : 'the language model';
  if (t.region === 'local') return `Translated on this computer by ${by}: the captions' text is not sent anywhere.`;
  const where = t.region === 'us' ? 'the US cloud' : t.region === 'eu' ? 'the EU cloud' : 'the service set in Settings';
  return `Translated by ${by} in ${where}: the text of each line is sent there.`;
}

function Translation() {
  const c = useSettings((s) => s.settings.captions);
  const update = useSettings((s) => s.update);
  const status = useCaptions((s) => s.translation);
  const setTranslation = useCaptions((s) => s.setTranslation);
  const value = c.translateTo ?? '';
  const pick = (code: string) => {
    void update({ captions: { ...c, translateTo: code } });
    // Main keeps the choice for the next run too, so "none" is told even when nothing runs.
    void setTranslation(code || null);
  };
  const current = status && status.language === (value || null) ? status : null;
  const listed = useChat((s) => s.models);
  return (
    <div className="field" data-testid="caption-translation-controls">
      <label htmlFor="cap-translate">Translate captions into</label>
      <select id="cap-translate" value={value} onChange={(e) => pick(e.target.value)} aria-describedby="cap-translate-help">
        <option value="">No translation</option>
        {CAPTION_LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name}
          </option>
        ))}
      </select>
      <div id="cap-translate-help" role="status" data-testid="caption-translation-status" data-max-depth={current?.maxDepth ?? 0}>
        {value && (!current || current.state === 'off') && (
          <p className="field__help">Each finished line gets its {languageName(value)} translation under it once captions start.</p>
        )}
        {current?.state === 'on' && current.model && <p className="field__help">{whereText(current, listed)}</p>}
        {current?.state === 'unavailable' && <p className="banner banner--warn">{current.message}</p>}
        {current?.state === 'on' && current.message && <p className="banner banner--warn">{current.message}</p>}
      </div>
    </div>
  );
}

const CITE = /\[(\d{1,3}:\d{2}(?::\d{2})?)\]/g;

/** The summary's text with each `[mm:ss]` citation as a button that plays the recording from that moment. */
function SummaryText({ summary, onCite }: { summary: MissedSummary; onCite: ((ms: number) => void) | null }) {
  const parts: (string | { label: string; ms: number })[] = [];
  let at = 0;
  for (const m of summary.content.matchAll(CITE)) {
    const cited = summary.citations.find((c) => c.label === m[1]);
    if (!cited || m.index === undefined) continue;
    parts.push(summary.content.slice(at, m.index), { label: m[1]!, ms: cited.startMs });
    at = m.index + m[0].length;
  }
  parts.push(summary.content.slice(at));
  return (
    <div className="cap-missed__answer" data-testid="missed-answer">
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <span key={i}>{p}</span>
        ) : onCite ? (
          <button key={i} type="button" className="cap-missed__cite" onClick={() => onCite(p.ms)} aria-label={`Play from ${p.label}`} data-testid="missed-cite">
            [{p.label}]
          </button>
        ) : (
          <span key={i} data-testid="missed-cite">
            [{p.label}]
          </span>
        ),
      )}
    </div>
  );
}

function parseSince(text: string): number | null {
  const m = /^\s*(?:(\d{1,2}):)?(\d{1,3}):(\d{2})\s*$/.exec(text);
  if (!m || Number(m[3]) > 59) return null;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
}

function Missed() {
  const phase = useCaptions((s) => s.phase);
  const missed = useCaptions((s) => s.missed);
  const listed = useChat((s) => s.models);
  const error = useCaptions((s) => s.missedError);
  const ask = useCaptions((s) => s.askMissed);
  const stop = useCaptions((s) => s.stopMissed);
  const recordedS = useCaptions((s) => s.recordedS);
  const replayFrom = useCaptions((s) => s.replayFrom);
  const [span, setSpan] = useState<'2' | '5' | '10' | 'since'>('5');
  const [since, setSince] = useState('00:00');
  const [sinceError, setSinceError] = useState<string | null>(null);
  const writing = missed?.status === 'streaming';
  const run = () => {
    if (span !== 'since') return void ask({ minutes: Number(span) as 2 | 5 | 10 });
    const ms = parseSince(since);
    if (ms === null) return setSinceError('Write the time as minutes and seconds of the session, for example 12:30.');
    setSinceError(null);
    void ask({ sinceMs: ms });
  };
  return (
    <div className="cap-missed" data-testid="missed">
      <h2 className="cap-missed__title">What did I miss?</h2>
      <div className="cap-missed__controls">
        <div className="field">
          <label htmlFor="cap-missed-span">Summarise</label>
          <select id="cap-missed-span" value={span} onChange={(e) => setSpan(e.target.value as typeof span)}>
            <option value="2">The last 2 minutes</option>
            <option value="5">The last 5 minutes</option>
            <option value="10">The last 10 minutes</option>
            <option value="since">Since a time of the session</option>
          </select>
        </div>
        {span === 'since' && (
          <div className="field">
            <label htmlFor="cap-missed-since">Since (mm:ss)</label>
            <input
              id="cap-missed-since"
              type="text"
              inputMode="numeric"
              value={since}
              onChange={(e) => setSince(e.target.value)}
              aria-invalid={sinceError ? true : undefined}
              aria-describedby={sinceError ? 'cap-missed-since-error' : undefined}
            />
          </div>
        )}
        {writing ? (
          <Button variant="danger" icon="pause" onClick={() => void stop()} data-testid="missed-stop">
            Stop
          </Button>
        ) : (
          <Button variant="primary" onClick={run} disabled={phase !== 'running'} data-testid="missed-ask">
            What did I miss?
          </Button>
        )}
      </div>
      {phase !== 'running' && !missed && <p className="field__help">Ask while captions are running: the captions carry on while the summary is written.</p>}
      {sinceError && (
        <p id="cap-missed-since-error" className="banner banner--error" role="alert">
          {sinceError}
        </p>
      )}
      {error && (
        <p className="banner banner--error" role="alert" data-testid="missed-error">
          {error}
        </p>
      )}
      {missed && (
        <div aria-live="polite" aria-busy={writing} data-testid="missed-summary" data-status={missed.status}>
          {missed.kind === 'meeting' && (
            <h3 className="cap-missed__title" data-testid="meeting-summary">
              Summary of the session{missed.template ? ` (${missed.template})` : ''}
            </h3>
          )}
          <p className="muted">
            {writing ? 'Writing… ' : ''}
            {missed.model ? `From ${chatModelName(missed.model, listed)}` : ''}
            {missed.extractive ? ', which quotes the captions instead of writing a summary.' : missed.model ? '.' : ''}
            {missed.status === 'stopped' ? ' Stopped.' : ''}
          </p>
          <SummaryText summary={missed} onCite={recordedS > 0 ? replayFrom : null} />
          {!!missed.unsupported && (
            <p className="muted">
              {missed.unsupported === 1 ? 'One point is' : `${missed.unsupported} points are`} marked “not found in the cited moments”: the captions there do
              not say it.
            </p>
          )}
          {missed.error && <p className="banner banner--error">{missed.error}</p>}
        </div>
      )}
    </div>
  );
}

/** After a session with translated lines: its captions as SRT or VTT, original, translation or both. */
function ExportTranslated() {
  const stopped = useCaptions((s) => s.lastStopped);
  const translated = useCaptions((s) => Object.keys(s.translations).length > 0);
  const exportCaptions = useCaptions((s) => s.exportCaptions);
  const [format, setFormat] = useState<'srt' | 'vtt'>('srt');
  const [text, setText] = useState<'original' | 'translation' | 'both'>('both');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  if (!stopped || !translated) return null;
  const run = () =>
    exportCaptions(stopped.recordingId, format, text).then(
      (name) => setResult({ ok: true, message: `Exported ${name} to your downloads.` }),
      (e: unknown) => setResult({ ok: false, message: e instanceof Error ? e.message : String(e) }),
    );
  return (
    <div className="cap-missed__controls" data-testid="captions-export">
      <div className="field">
        <label htmlFor="cap-export-format">Export captions as</label>
        <select id="cap-export-format" value={format} onChange={(e) => setFormat(e.target.value as typeof format)}>
          <option value="srt">SRT</option>
          <option value="vtt">WebVTT</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="cap-export-text">With</label>
        <select id="cap-export-text" value={text} onChange={(e) => setText(e.target.value as typeof text)}>
          <option value="original">The original lines</option>
          <option value="translation">The translation</option>
          <option value="both">Both, the translation under the original</option>
        </select>
      </div>
      <Button onClick={() => void run()} data-testid="captions-export-button">
        Export
      </Button>
      {result && (
        <p className={`banner ${result.ok ? 'banner--ok' : 'banner--error'}`} role="status">
          {result.message}
        </p>
      )}
    </div>
  );
}

/** "Still recording?": no one has spoken for a while; the session stops by itself a minute later, keeping everything. */
function StillRecording() {
  const ask = useCaptions((s) => s.stillRecording);
  const keep = useCaptions((s) => s.keepRecording);
  const stop = useCaptions((s) => s.stop);
  if (!ask) return null;
  const at = new Date(ask.stopAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return (
    <div className="banner banner--warn cap-still" role="alert" data-testid="still-recording">
      <p>
        <strong>Still recording?</strong> No one has spoken for {ask.silentMinutes === 1 ? 'a minute' : `${ask.silentMinutes} minutes`}. The session stops at{' '}
        {at}, keeping everything so far.
      </p>
      <div className="cap-still__actions">
        <Button size="sm" variant="primary" onClick={() => void keep()}>
          Keep recording
        </Button>
        <Button size="sm" onClick={() => void stop()}>
          Stop now
        </Button>
      </div>
    </div>
  );
}

export function CaptionsExtras() {
  return (
    <section className="card cap-extras" aria-label="Translation and catching up">
      <StillRecording />
      <Translation />
      <ExportTranslated />
      <Missed />
    </section>
  );
}
