/**
 * Settings → Models: one row per downloadable speech model (size, languages,
 * published accuracy and its source, word timings, installed or not, disk
 * use) with Download / Pause / Resume / Cancel / Delete and "use for files /
 * live captions"; the defaults (PocketSphinx, built in, needs no download);
 * a download mirror; install from a file.
 */
import { useRef, useState } from 'react';
import type { CatalogEntry } from '../../../../shared/models/catalog';
import type { DownloadStatus, ModelRow } from '../../../../shared/models/view';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { formatBytes, percent } from '../../components/format';
import { ProgressBar } from '../../components/ProgressBar';
import { useModels } from '../../stores/models';
import { useSettings } from '../../stores/settings';

const TIMINGS: Record<CatalogEntry['wordTimings'], string> = {
  words: 'Yes, a time for every word',
  segments: 'Per segment only; word times are approximate',
  none: 'None; word times are approximate',
};
const TASKS: Record<string, string> = { files: 'Files', live: 'Live captions', segmentation: 'Speakers', embedding: 'Speakers', chat: 'Chat' };
const GROUPS: { id: string; title: string; tasks: CatalogEntry['task'][] }[] = [
  { id: 'files', title: 'Speech: files', tasks: ['files'] },
  { id: 'live', title: 'Speech: live captions', tasks: ['live'] },
  { id: 'speakers', title: 'Speakers (who spoke when)', tasks: ['segmentation', 'embedding'] },
  { id: 'chat', title: 'Chat', tasks: ['chat'] },
];
const RUNNING = new Set<DownloadStatus['state']>(['queued', 'downloading', 'verifying', 'unpacking']);

function languagesText(langs: string[]): string {
  return langs.length > 4 ? `${langs.length} languages` : langs.map((l) => (l === 'en' ? 'English' : l)).join(', ');
}

function Accuracy({ entry }: { entry: CatalogEntry }) {
  if (entry.wer.length === 0) return <span className="muted">Not published</span>;
  const source = entry.wer[0]!.source;
  return (
    <span>
      {entry.wer.map((w) => `${w.value}% WER on ${w.set}`).join(', ')}{' '}
      <a href={source} target="_blank" rel="noreferrer">
        (source<span className="sr-only">: {new URL(source).host}</span>)
      </a>
    </span>
  );
}

function stateText(d: DownloadStatus): string {
  switch (d.state) {
    case 'queued':
      return 'Starting…';
    case 'downloading':
      return `Downloading: ${formatBytes(d.bytes)} of ${formatBytes(d.total)}`;
    case 'paused':
      return `Paused at ${formatBytes(d.bytes)} of ${formatBytes(d.total)}`;
    case 'verifying':
      return 'Checking the download…';
    case 'unpacking':
      return 'Unpacking…';
    default:
      return '';
  }
}

function Row({ row, defaults }: { row: ModelRow; defaults: { files: string; live: string } }) {
  const { entry, installed } = row;
  const live = useModels((s) => s.progress[entry.id]);
  const { download, pause, resume, cancel, remove, setDefault } = useModels.getState();
  const [confirming, setConfirming] = useState(false);
  const d = live ?? row.download;
  const active = d && (RUNNING.has(d.state) || d.state === 'paused' || d.state === 'failed') && !(installed && d.state === 'failed') ? d : null;
  const task = entry.task === 'live' ? 'live' : 'files';
  // Speaker (segmentation, embedding) and chat models are not speech models: they are no default for files.
  const speech = entry.task === 'files' || entry.task === 'live';
  const isDefault = speech && defaults[task] === entry.id;
  const deleteRef = useRef<HTMLButtonElement>(null);
  const titleId = `model-${entry.id}-title`;
  return (
    <li className="model" aria-labelledby={titleId} data-testid={`model-${entry.id}`}>
      <div className="model__head">
        <h3 id={titleId}>{entry.name}</h3>
        <Badge tone="info">{TASKS[entry.task] ?? entry.task}</Badge>
        {installed ? <Badge tone="ok">Installed</Badge> : <Badge>Not installed</Badge>}
        {isDefault && <Badge tone="accent">Default for {task === 'live' ? 'live captions' : 'files'}</Badge>}
      </div>
      {entry.note && <p className="field__help">{entry.note}</p>}
      <dl className="facts model__facts">
        <dt>Download size</dt>
        <dd>About {formatBytes(entry.sizeBytes)}</dd>
        <dt>Languages</dt>
        <dd>{languagesText(entry.languages)}</dd>
        {speech && (
          <>
            <dt>Accuracy</dt>
            <dd>
              <Accuracy entry={entry} />
            </dd>
            <dt>Word times</dt>
            <dd>{TIMINGS[entry.wordTimings]}</dd>
          </>
        )}
        <dt>Licence</dt>
        <dd>{entry.licence}</dd>
        {installed && (
          <>
            <dt>On disk</dt>
            <dd data-testid="disk-use">{formatBytes(installed.bytes)}</dd>
          </>
        )}
      </dl>
      {active && active.state !== 'failed' && (
        <div className="model__progress">
          <ProgressBar
            value={active.state === 'downloading' || active.state === 'paused' ? percent(active.bytes, active.total) : null}
            label={`Download of ${entry.name}`}
            bytesPerSecond={active.state === 'downloading' ? active.speed : null}
            etaSeconds={active.state === 'downloading' ? active.etaSeconds : null}
            activity={stateText(active)}
          />
          <p className="muted model__state" data-testid="download-state">
            {stateText(active)}
          </p>
        </div>
      )}
      {active?.state === 'failed' && active.error && (
        <p className="field__error" role="alert" data-testid="download-error">
          {active.error.message}
        </p>
      )}
      <div className="row model__actions">
        {!installed && !active && (
          <Button variant="primary" size="sm" onClick={() => void download(entry.id)}>
            Download <span className="sr-only">{entry.name}</span>
          </Button>
        )}
        {active && RUNNING.has(active.state) && (
          <>
            <Button size="sm" onClick={() => void pause(entry.id)} disabled={active.state !== 'downloading' && active.state !== 'queued'}>
              Pause <span className="sr-only">{entry.name}</span>
            </Button>
            <Button size="sm" variant="ghost" onClick={() => void cancel(entry.id)}>
              Cancel <span className="sr-only">download of {entry.name}</span>
            </Button>
          </>
        )}
        {active && (active.state === 'paused' || active.state === 'failed') && (
          <>
            <Button size="sm" variant="primary" onClick={() => void resume(entry.id)}>
              {active.state === 'failed' ? 'Try again' : 'Resume'} <span className="sr-only">{entry.name}</span>
            </Button>
            {active.bytes > 0 && (
              <Button size="sm" variant="ghost" onClick={() => void cancel(entry.id)}>
                Cancel <span className="sr-only">download of {entry.name}</span>
              </Button>
            )}
          </>
        )}
        {installed && speech && !isDefault && (
          <Button size="sm" variant="primary" onClick={() => void setDefault(task, entry.id)}>
            {task === 'live' ? 'Use for live captions' : 'Use for files'} <span className="sr-only">: {entry.name}</span>
          </Button>
        )}
        {installed && !confirming && (
          <Button size="sm" variant="ghost" ref={deleteRef} onClick={() => setConfirming(true)}>
            Delete <span className="sr-only">{entry.name}</span> ({formatBytes(installed.bytes)})
          </Button>
        )}
        {installed && confirming && (
          <span className="row" role="group" aria-label={`Delete ${entry.name}?`}>
            <span>
              Delete {entry.name}? It frees {formatBytes(installed.bytes)}.
            </span>
            <Button size="sm" variant="danger" autoFocus onClick={() => void remove(entry.id, entry.name).then(() => setConfirming(false))}>
              Delete
            </Button>
            <Button
              size="sm"
              onClick={() => {
                setConfirming(false);
                // Back on the Delete button the question replaced.
                requestAnimationFrame(() => deleteRef.current?.focus());
              }}
            >
              Keep
            </Button>
          </span>
        )}
      </div>
    </li>
  );
}

function DefaultPicker({ task, rows, value }: { task: 'files' | 'live'; rows: ModelRow[]; value: string }) {
  const setDefault = useModels((s) => s.setDefault);
  const choices = rows.filter((r) => r.installed && (r.entry.task === 'live') === (task === 'live'));
  const id = `default-${task}`;
  return (
    <div className="field">
      <label htmlFor={id}>{task === 'live' ? 'Model for live captions' : 'Model for files'}</label>
      <select id={id} value={value} onChange={(e) => void setDefault(task, e.target.value)}>
        <option value="">PocketSphinx (built in, no download)</option>
        {choices.map((r) => (
          <option key={r.entry.id} value={r.entry.id}>
            {r.entry.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function MirrorField() {
  const models = useSettings((s) => s.settings.models);
  const update = useSettings((s) => s.update);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="field">
      <label htmlFor="models-mirror">Download address (mirror)</label>
      <input
        id="models-mirror"
        type="url"
        value={draft ?? models.mirror}
        placeholder="https://mirror.example.org/sherpa-onnx"
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby="models-mirror-note"
        onChange={(e) => setDraft(e.target.value)}
        onBlur={async () => {
          if (draft === null) return;
          const v = draft.trim();
          if (v && !/^https?:\/\/\S+$/.test(v)) return setError('That is not a web address; it must start with https:// or http://');
          const ok = await update({ models: { ...models, mirror: v } });
          setError(ok === false ? 'Verbatim could not save this address. Check it and try again.' : null);
          if (ok !== false) setDraft(null);
        }}
      />
      <p id="models-mirror-note" className={error ? 'field__error' : 'field__help'} role={error ? 'alert' : undefined}>
        {error ??
          'Empty: the sherpa-onnx releases on GitHub. For a corporate network, a folder on your own server holding the archives under their usual names. Proxies come from HTTPS_PROXY / HTTP_PROXY; your system’s certificates are trusted.'}
      </p>
    </div>
  );
}

export function ModelsSection() {
  const list = useModels((s) => s.list);
  const error = useModels((s) => s.error);
  const notice = useModels((s) => s.notice);
  const installing = useModels((s) => s.installing);
  const installFile = useModels((s) => s.installFile);
  const defaults = useSettings((s) => s.settings.models);
  const fileRef = useRef<HTMLInputElement>(null);
  const speechRows = list?.models.filter((r) => r.entry.task === 'files' || r.entry.task === 'live') ?? [];
  return (
    <section className="card models" aria-labelledby="models-title">
      <h2 id="models-title">Models</h2>
      <p className="field__help">
        The local engine transcribes with PocketSphinx, built in. A downloaded model is far more accurate and still runs entirely on this computer; download it
        once, then choose it below. No restart needed.
      </p>
      <div className="grid2">
        <DefaultPicker task="files" rows={speechRows} value={defaults.files} />
        <DefaultPicker task="live" rows={speechRows} value={defaults.live} />
      </div>
      {error && (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      <p className="muted" role="status" aria-live="polite" data-testid="models-notice">
        {notice ?? ''}
      </p>
      {list === null ? (
        <p className="muted">Loading the catalog…</p>
      ) : (
        <>
          <p className="muted">
            {list.freeBytes !== null && <>{formatBytes(list.freeBytes)} free in </>}
            <code className="path">{list.dir}</code>
          </p>
          {GROUPS.map((g) => {
            const rows = list.models.filter((r) => g.tasks.includes(r.entry.task));
            if (rows.length === 0) return null;
            return (
              <section key={g.id} aria-labelledby={`models-${g.id}`}>
                <h3 className="models__sub" id={`models-${g.id}`}>
                  {g.title}
                </h3>
                <ul className="model-list">
                  {rows.map((row) => (
                    <Row key={row.entry.id} row={row} defaults={defaults} />
                  ))}
                </ul>
              </section>
            );
          })}
        </>
      )}
      <h3 className="models__sub">Other ways to get a model</h3>
      <MirrorField />
      <div className="field">
        <span className="field__label" id="install-file-label">
          Install from a file
        </span>
        <p className="field__help" id="install-file-help">
          For a computer that cannot download: pick the archive as it was downloaded elsewhere (for example sherpa-onnx-zipformer-small-en-2023-06-26.tar.bz2).
          It is checked and installed the same way.
        </p>
        <input
          ref={fileRef}
          type="file"
          accept=".bz2,.gguf"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="install-file-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void installFile(f);
          }}
        />
        <div className="row">
          <Button
            onClick={() => fileRef.current?.click()}
            busy={installing !== null}
            aria-describedby="install-file-help"
            aria-labelledby="install-file-label install-file-button"
            id="install-file-button"
          >
            Choose a file…
          </Button>
          {installing && (
            <span className="muted">
              Installing {installing.name}
              {installing.percent !== null ? ` (${Math.round(installing.percent)}% sent)` : '…'}
            </span>
          )}
        </div>
      </div>
    </section>
  );
}
