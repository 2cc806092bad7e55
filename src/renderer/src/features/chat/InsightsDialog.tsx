/**
 * Speech-understanding actions on one transcript (summary, action items, key
 * decisions, translation side by side, custom formatting) and their saved
 * results. An action the current model cannot do says what it needs.
 */
import { useEffect, useState } from 'react';
import { insightNeeds, type Insight, type InsightKind } from '../../../../shared/chat/schema';
import { clockLabel, parseClock } from '../../../../shared/chat/citations';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { errorMessage } from '../../bridge';
import { chatModelName } from '../../lib/modelName';
import { useApp } from '../../stores/app';
import { useChat } from '../../stores/chat';
import { useTemplates } from '../../stores/templates';

const labels: Record<InsightKind, string> = {
  summary: 'Summary',
  action_items: 'Action items',
  decisions: 'Key decisions',
  translation: 'Translation',
  custom_formatting: 'Custom formatting',
};

const CITED = /\[(?:[^[\]@\n]{1,120}?\s*@\s*)?(\d{1,3}:\d{2}(?::\d{2})?)\]/g;

/** A point with its `[Title @ mm:ss]` citations as buttons that open the transcript at that moment. */
function Cited({ text, recordingId }: { text: string; recordingId: string }) {
  const openTranscript = useApp((s) => s.openTranscript);
  const out: React.ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(CITED)) {
    const ms = parseClock(m[1] ?? '');
    if (ms === null || m.index === undefined) continue;
    out.push(text.slice(at, m.index));
    out.push(
      <button key={m.index} type="button" className="linkish" onClick={() => openTranscript(recordingId, ms)} aria-label={`Open at ${clockLabel(ms)}`}>
        {clockLabel(ms)}
      </button>,
    );
    at = m.index + m[0].length;
  }
  out.push(text.slice(at));
  return <>{out}</>;
}

function Result({ insight, recordingId }: { insight: Insight; recordingId: string }) {
  const listed = useChat((s) => s.models);
  const r = insight.result;
  const openTranscript = useApp((s) => s.openTranscript);
  const title = r.kind === 'translation' ? `Translation into ${r.language}` : labels[r.kind];
  return (
    <section className="insight" data-testid={`insight-${r.kind}`} aria-label={title}>
      <h3>{title}</h3>
      {r.kind === 'summary' && r.sections ? (
        <>
          {r.template && <p className="muted">Written to the “{r.template}” template.</p>}
          {r.sections.map((s, i) => (
            <div key={i}>
              <h4>{s.title}</h4>
              {s.bullets.length ? (
                <ul>
                  {s.bullets.map((b, j) => (
                    <li key={j}>
                      <Cited text={b} recordingId={recordingId} />
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="muted">Nothing on this in the recording.</p>
              )}
            </div>
          ))}
        </>
      ) : null}
      {r.kind === 'summary' &&
        !r.sections &&
        (r.bullets.length ? (
          <ul>
            {r.bullets.map((b, i) => (
              <li key={i}>
                <Cited text={b} recordingId={recordingId} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing to summarize.</p>
        ))}
      {r.kind === 'decisions' &&
        (r.decisions.length ? (
          <ul>
            {r.decisions.map((b, i) => (
              <li key={i}>
                <Cited text={b} recordingId={recordingId} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No decisions were made.</p>
        ))}
      {r.kind === 'action_items' &&
        (r.items.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Owner</th>
                <th scope="col">Task</th>
                <th scope="col">Due</th>
              </tr>
            </thead>
            <tbody>
              {r.items.map((it, i) => (
                <tr key={i}>
                  <td>{it.owner ?? <span className="muted">Unassigned</span>}</td>
                  <td>
                    <Cited text={it.task} recordingId={recordingId} />
                  </td>
                  <td>{it.due ?? <span className="muted">No date</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">No action items.</p>
        ))}
      {r.kind === 'translation' && (
        <div className="translation" role="table" aria-label={title}>
          <div role="row" className="visually-hidden">
            <span role="columnheader">Original</span>
            <span role="columnheader">{r.language}</span>
          </div>
          <span className="translation__head" aria-hidden="true">
            Original
          </span>
          <span className="translation__head" aria-hidden="true">
            {r.language}
          </span>
          {r.paragraphs.map((p, i) => (
            <div key={i} role="row" style={{ display: 'contents' }}>
              <span role="cell">
                <button
                  type="button"
                  className="linkish"
                  onClick={() => openTranscript(recordingId, p.startMs)}
                  aria-label={`Open at ${clockLabel(p.startMs)}`}
                >
                  {clockLabel(p.startMs)}
                </button>{' '}
                {p.original}
              </span>
              <span role="cell" lang={r.language.length <= 3 ? r.language : undefined}>
                {p.translated || <span className="muted">(not translated)</span>}
              </span>
            </div>
          ))}
        </div>
      )}
      {r.kind === 'custom_formatting' && (
        <>
          {Object.keys(r.mapping).length ? (
            <ul>
              {Object.entries(r.mapping).map(([from, to]) => (
                <li key={from}>
                  “{from}” → <strong>{to}</strong>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No dates, phone numbers or emails were found.</p>
          )}
          <p className="insight__text">{r.formattedText}</p>
        </>
      )}
      <p className="insight__meta">
        {insight.model ? `${chatModelName(insight.model, listed)} · ` : ''}
        {new Date(insight.createdAt).toLocaleString()}
      </p>
    </section>
  );
}

export function InsightsDialog({ open, onClose, recordingId, title }: { open: boolean; onClose(): void; recordingId: string; title: string }) {
  const models = useChat((s) => s.models);
  const defaultModel = useChat((s) => s.defaultModel);
  const loadModels = useChat((s) => s.loadModels);
  const [insights, setInsights] = useState<Insight[]>([]);
  const [running, setRunning] = useState<InsightKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [language, setLanguage] = useState('French');
  const templates = useTemplates((s) => s.templates);
  const [templateId, setTemplateId] = useState('');
  const progress = useChat((s) => s.insightProgress[recordingId]);
  const [formats, setFormats] = useState({ date: 'mm/dd/yyyy', phone_number: '(xxx)xxx-xxxx', email: 'username@domain.com' });
  const model = models.find((m) => m.id === defaultModel) ?? null;

  useEffect(() => {
    if (!open) return;
    void loadModels();
    void useTemplates.getState().load();
    useChat
      .getState()
      .insightsOf(recordingId)
      .then(
        (list) => setInsights(list),
        (err: unknown) => setError(errorMessage(err)),
      );
  }, [open, recordingId, loadModels]);

  const run = async (kind: InsightKind) => {
    setRunning(kind);
    setError(null);
    try {
      const input =
        kind === 'translation'
          ? { id: recordingId, kind, language: language.trim() }
          : kind === 'custom_formatting'
            ? { id: recordingId, kind, formatting: Object.fromEntries(Object.entries(formats).filter(([, v]) => v.trim())) }
            : kind === 'summary' && templateId
              ? { id: recordingId, kind, templateId }
              : { id: recordingId, kind };
      const saved = await useChat.getState().runInsight(input);
      setInsights((list) => [saved, ...list.filter((i) => !(i.kind === saved.kind && i.variant === saved.variant))]);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setRunning(null);
    }
  };

  const action = (kind: InsightKind, extra?: React.ReactNode) => {
    const need = insightNeeds(kind, model);
    const helpId = `need-${kind}`;
    return (
      <div className="insights__action" key={kind}>
        {extra}
        <Button
          size="sm"
          busy={running === kind}
          disabled={running !== null || need !== null}
          aria-describedby={need ? helpId : undefined}
          onClick={() => void run(kind)}
        >
          {kind === 'translation' ? 'Translate' : kind === 'custom_formatting' ? 'Format' : labels[kind]}
        </Button>
        {need && (
          <p className="insights__need" id={helpId}>
            {need}
          </p>
        )}
      </div>
    );
  };

  return (
    <Dialog open={open} title={`Understand “${title}”`} onClose={onClose} width={760}>
      <div className="insights insights-dialog">
        <p className="muted">{model ? `Runs with ${model.name}. Results are saved with the transcript.` : 'Looking for the service’s models…'}</p>
        <div className="insights__actions">
          {action(
            'summary',
            templates.length > 0 && (
              <label className="field">
                <span className="field__label">Template</span>
                <select value={templateId} onChange={(e) => setTemplateId(e.target.value)} data-testid="insight-template">
                  <option value="">Plain summary</option>
                  {templates.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </label>
            ),
          )}
          {action('action_items')}
          {action('decisions')}
        </div>
        <div className="insights__form">
          {action(
            'translation',
            <label className="field">
              <span className="field__label">Translate into</span>
              <input value={language} onChange={(e) => setLanguage(e.target.value)} maxLength={40} />
            </label>,
          )}
        </div>
        <div className="insights__form">
          {action(
            'custom_formatting',
            <>
              <label className="field">
                <span className="field__label">Dates</span>
                <input value={formats.date} onChange={(e) => setFormats({ ...formats, date: e.target.value })} maxLength={40} />
              </label>
              <label className="field">
                <span className="field__label">Phone numbers</span>
                <input value={formats.phone_number} onChange={(e) => setFormats({ ...formats, phone_number: e.target.value })} maxLength={40} />
              </label>
              <label className="field">
                <span className="field__label">Emails</span>
                <input value={formats.email} onChange={(e) => setFormats({ ...formats, email: e.target.value })} maxLength={60} />
              </label>
            </>,
          )}
        </div>
        {error && (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        )}
        {running && (
          <div className="insights__running">
            <p className="muted" data-testid="insight-progress">
              {progress && progress.total > 1
                ? `Reading the recording in ${progress.total} parts: ${progress.done} of ${progress.total} done…`
                : `Running ${labels[running]}…`}
            </p>
            <Button size="sm" variant="ghost" onClick={() => void useChat.getState().stopInsight(recordingId)}>
              Stop
            </Button>
          </div>
        )}
        <div role="status" className="visually-hidden">
          {running ? `Running ${labels[running]}…` : ''}
        </div>
        {insights.map((i) => (
          <Result key={`${i.kind}/${i.variant}`} insight={i} recordingId={recordingId} />
        ))}
      </div>
    </Dialog>
  );
}
