/**
 * The "What did I miss?" summaries asked during a saved live session, with
 * the stretch each covered, the model that wrote it, how it ended, and its
 * citations as links that play the recording from the cited moment.
 */
import { useEffect, type MouseEvent } from 'react';
import type { MissedSummary } from '../../../../shared/captions-extras';
import { citationHref, clockLabel, findCitations } from '../../../../shared/chat/citations';
import { catalogEntry } from '../../../../shared/models/lookup';
import { chatModelName, type NamedModel } from '../../lib/modelName';
import { useChat } from '../../stores/chat';
import { useLoadSessionExtras, useSessionExtras } from '../../stores/sessionExtras';
import { useTranscript } from '../../stores/transcript';
import './session-extras.css';

/** The summary's text with each `[mm:ss]` it cites as a link to that moment (a bracket it does not cite stays text). */
function citedParts(summary: MissedSummary): (string | { label: string; ms: number })[] {
  // The summary speaks of one session, so a bare [mm:ss] is a citation (findCitations' one-source rule).
  const found = findCitations(summary.content, [{ recordingId: summary.recordingId, label: 'session' }]);
  const parts: (string | { label: string; ms: number })[] = [];
  let at = 0;
  for (const f of found) {
    const cited = summary.citations.find((c) => Math.floor(c.startMs / 1000) === Math.floor(f.atMs / 1000));
    if (!cited || f.index < at) continue;
    parts.push(summary.content.slice(at, f.index), { label: cited.label, ms: cited.startMs });
    at = f.index + f.length;
  }
  parts.push(summary.content.slice(at));
  return parts.filter((p) => p !== '');
}

function byline(s: MissedSummary, listed: readonly NamedModel[]): string {
  if (!s.model) return 'No language model could write it.';
  const name = chatModelName(s.model, listed);
  return s.extractive ? `By ${name}, extractive: it quotes the captions instead of writing a summary.` : `By ${name}.`;
}

function Summary({ summary, recordingId }: { summary: MissedSummary; recordingId: string }) {
  const listed = useChat((s) => s.models);
  const from = clockLabel(summary.fromMs);
  const to = clockLabel(summary.toMs);
  // As a chat citation opens its moment and plays it; the transcript is already open, so focus stays on the link.
  const play = (e: MouseEvent, ms: number) => {
    e.preventDefault();
    void useTranscript.getState().open(recordingId, ms, true);
  };
  return (
    <li className="session-summary" data-testid="session-summary" data-status={summary.status}>
      <h4 className="session-summary__window">
        {summary.kind === 'meeting' ? (
          <>Summary of the whole session{summary.template ? ` (${summary.template})` : ''}</>
        ) : (
          <>
            <span className="visually-hidden">Summary of </span>
            {from}–{to}
            <span className="visually-hidden"> of the session</span>
          </>
        )}
      </h4>
      <p className="session-summary__by muted" data-testid="session-summary-model">
        {byline(summary, listed)}
        {summary.status === 'stopped' && ' Stopped before it was finished.'}
        {summary.status === 'streaming' && ' It was not finished when the session ended.'}
      </p>
      {summary.content && (
        <p className="session-summary__text" data-testid="session-summary-text">
          {citedParts(summary).map((p, i) =>
            typeof p === 'string' ? (
              <span key={i}>{p}</span>
            ) : (
              <a
                key={i}
                className="cite"
                href={citationHref(recordingId, p.ms)}
                onClick={(e) => play(e, p.ms)}
                aria-label={`Play the recording from ${p.label}`}
                title={`Play the recording from ${p.label}`}
                data-testid="session-summary-cite"
                data-ms={p.ms}
              >
                {p.label}
              </a>
            ),
          )}
        </p>
      )}
      {summary.status === 'error' && (
        <p className="banner banner--error" data-testid="session-summary-error">
          It failed: {summary.error ?? 'the model gave no reason.'}
        </p>
      )}
    </li>
  );
}

/** Shown only for a session with summaries. */
export function SessionSummaries({ recordingId }: { recordingId: string }) {
  useLoadSessionExtras(recordingId);
  const summaries = useSessionExtras((s) => (s.recordingId === recordingId ? s.summaries : null));
  const listed = useChat((s) => s.models);
  const loadModels = useChat((s) => s.loadModels);
  // A model outside the catalog (installed by hand, or the built-in extractive one) is named by the service's list.
  const unnamed = summaries?.some((s) => s.model && !catalogEntry(s.model) && !listed.some((m) => m.id === s.model)) ?? false;
  useEffect(() => {
    if (unnamed) void loadModels();
  }, [unnamed, loadModels]);
  if (!summaries || summaries.length === 0) return null;
  return (
    <section className="session-summaries" aria-labelledby="session-summaries-title" data-testid="session-summaries">
      <h3 id="session-summaries-title">Summaries from the session</h3>
      <ol className="session-summaries__list">
        {summaries.map((s) => (
          <Summary key={s.id} summary={s} recordingId={recordingId} />
        ))}
      </ol>
    </section>
  );
}
