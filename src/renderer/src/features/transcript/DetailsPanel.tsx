/** Facts about a transcript, and for a failed one the service's error with the action that fixes it. */
import { useState } from 'react';
import type { Transcript, WebhookStatus } from '../../../../shared/library';
import { errorMessage } from '../../bridge';
import { toast } from '../../stores/toasts';
import { regionLabels } from '../../components/labels';
import { Button } from '../../components/Button';
import { formatClock, formatDateTime } from '../../components/format';
import { languageName, statusLabel } from '../../components/status';
import { useApp } from '../../stores/app';
import { useJobs } from '../../stores/jobs';
import { useLibrary } from '../../stores/library';
import { useTranscript } from '../../stores/transcript';
import { approximateTimes } from '../../lib/wordTimes';
import { confidenceSource, confidenceSourceText } from '../../lib/confidenceSource';
import { usedModelText } from '../../lib/serviceModels';
import { SessionSummaries } from './SessionSummaries';

/** The recording's tags, each with a way to take it off (the Tag dialog only adds). */
function TagList({ id, tags }: { id: string; tags: string[] }) {
  const setTags = useLibrary((s) => s.setTags);
  const removeTag = async (tag: string) => {
    const next = tags.filter((t) => t !== tag);
    await setTags(id, next);
    const t = useTranscript.getState().transcript;
    if (t?.item.id === id) useTranscript.setState({ transcript: { ...t, item: { ...t.item, tags: next } } });
  };
  return (
    <ul className="taglist">
      {tags.map((t) => (
        <li key={t} className="tag tag--removable">
          <span className="tag__name" title={t}>
            {t}
          </span>
          <button type="button" className="tag__remove" aria-label={`Remove tag ${t}`} onClick={() => void removeTag(t)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

const webhookText = (w: WebhookStatus): string =>
  ({
    pending: 'Waiting for the service to deliver it…',
    retrying: `Retrying: your server answered HTTP ${w.statusCode}`,
    delivered: `Delivered: HTTP ${w.statusCode}`,
    failed: w.statusCode === null ? 'Not delivered: your server did not answer' : `Not delivered: your server answered HTTP ${w.statusCode}`,
  })[w.state];

/** What the team's server answered the service for this transcript, with a way to ask again. */
function WebhookState({ id, webhook }: { id: string; webhook: WebhookStatus }) {
  const [busy, setBusy] = useState(false);
  const check = async () => {
    setBusy(true);
    try {
      await useLibrary.getState().checkWebhook(id);
    } catch (err) {
      toast(`Could not ask the service: ${errorMessage(err)}`, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="webhook" data-testid="webhook-state" data-state={webhook.state}>
      <span className={`webhook__state webhook__state--${webhook.state}`}>{webhookText(webhook)}</span>
      <span className="details__wrap muted" title={webhook.url}>
        {webhook.url}
      </span>
      {webhook.state !== 'delivered' && (
        <Button size="sm" variant="ghost" icon="retry" busy={busy} onClick={() => void check()}>
          Check again
        </Button>
      )}
    </div>
  );
}

export function DetailsPanel({ transcript }: { transcript: Transcript }) {
  const item = transcript.item;
  const job = useJobs((s) => Object.values(s.jobs).find((j) => j.recordingId === item.id) ?? null);
  const retry = useJobs((s) => s.retry);
  const setScreen = useApp((s) => s.setScreen);
  const approximate = approximateTimes(item.model);
  return (
    // Focusable: a long panel (a session's summaries) scrolls by keyboard even when nothing in it takes focus.
    <aside className="details" aria-label="Details" data-testid="details" tabIndex={0}>
      <h2>Details</h2>
      {item.status === 'error' && item.error && (
        <div className="banner banner--error" role="alert">
          <p>{item.error.message}</p>
          <div className="banner__actions">
            {item.error.code === 'invalid_key' && (
              <Button size="sm" variant="primary" icon="key" onClick={() => setScreen('settings')}>
                Re-enter key
              </Button>
            )}
            {item.error.retryable && job && (
              <Button size="sm" icon="retry" onClick={() => void retry(job.id)}>
                Submit again
              </Button>
            )}
          </div>
        </div>
      )}
      {/* First: what was asked during the session says more about it than the facts below. */}
      {item.source === 'Live session' && <SessionSummaries recordingId={item.id} />}
      <dl className="facts facts--narrow">
        <dt>Status</dt>
        <dd>{statusLabel[item.status][0]}</dd>
        <dt>Region</dt>
        <dd>{regionLabels[item.region]}</dd>
        <dt>Model</dt>
        {/* What the service says it used; the requested list is a wish, not a fact. */}
        <dd data-testid="details-model">
          {item.model ? usedModelText(item.model) : '—'}
          {approximate && (
            <span className="details__note" data-testid="details-approximate-times">
              Word times are approximate: {approximate.model} gives no word timings.
            </span>
          )}
        </dd>
        <dt>Language</dt>
        <dd>{languageName(item.language)}</dd>
        <dt>Length</dt>
        <dd>{formatClock(item.durationMs)}</dd>
        <dt>Confidence</dt>
        <dd>
          {/* A model that gives no word confidences has no overall one either (its words' values say nothing). */}
          {transcript.confidence === null || confidenceSource(item.region, item.model) === 'none' ? '—' : `${Math.round(transcript.confidence * 100)}%`}
          {item.status === 'completed' && (
            <span className="details__note" data-testid="details-confidence-source">
              {confidenceSourceText(confidenceSource(item.region, item.model), item.model)}
            </span>
          )}
        </dd>
        <dt>Words</dt>
        <dd>{transcript.words.length.toLocaleString()}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(item.createdAt)}</dd>
        <dt>{item.completedAt ? 'Completed' : 'Updated'}</dt>
        <dd>{formatDateTime(item.completedAt ?? item.updatedAt)}</dd>
        <dt>Source</dt>
        <dd className="details__wrap">{item.source}</dd>
        <dt>Remote id</dt>
        <dd>
          <code className="details__wrap">{item.remoteId ?? '—'}</code>
        </dd>
        {transcript.webhook && (
          <>
            <dt>Webhook</dt>
            <dd>
              <WebhookState id={item.id} webhook={transcript.webhook} />
            </dd>
          </>
        )}
        {item.tags.length > 0 && (
          <>
            <dt>Tags</dt>
            <dd>
              <TagList id={item.id} tags={item.tags} />
            </dd>
          </>
        )}
      </dl>
    </aside>
  );
}
