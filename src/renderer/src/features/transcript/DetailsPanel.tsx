/** Facts about a transcript, and for a failed one the service's error with the action that fixes it. */
import { useState } from 'react';
import type { Transcript, WebhookStatus } from '../../../../shared/library';
import { api, errorMessage } from '../../bridge';
import { toast } from '../../stores/toasts';
import { regionLabels } from '../../components/labels';
import { Button } from '../../components/Button';
import { formatClock, formatDateTime } from '../../components/format';
import { useApp } from '../../stores/app';
import { useJobs } from '../../stores/jobs';

function optionText(options: Record<string, unknown>, key: string): string | null {
  const v = options[key];
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
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
      await api.invoke('library.checkWebhook', { id });
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
  const models = optionText(transcript.options, 'speechModels');
  return (
    <aside className="details" aria-label="Details" data-testid="details">
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
      <dl className="facts facts--narrow">
        <dt>Status</dt>
        <dd className="details__status">{item.status}</dd>
        <dt>Region</dt>
        <dd>{regionLabels[item.region]}</dd>
        <dt>Model</dt>
        <dd>{item.model ?? models ?? '—'}</dd>
        <dt>Language</dt>
        <dd>{item.language ?? '—'}</dd>
        <dt>Length</dt>
        <dd>{formatClock(item.durationMs)}</dd>
        <dt>Confidence</dt>
        <dd>{transcript.confidence === null ? '—' : `${Math.round(transcript.confidence * 100)}%`}</dd>
        <dt>Words</dt>
        <dd>{transcript.words.length.toLocaleString()}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(item.createdAt)}</dd>
        <dt>{item.status === 'completed' ? 'Completed' : 'Updated'}</dt>
        <dd>{formatDateTime(job?.completedAt ?? item.updatedAt)}</dd>
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
            <dd>{item.tags.join(', ')}</dd>
          </>
        )}
      </dl>
    </aside>
  );
}
