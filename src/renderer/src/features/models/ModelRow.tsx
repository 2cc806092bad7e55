/**
 * One model in the Models table: its facts side by side (size, languages,
 * accuracy with its source, speed measured here, word times), its state and
 * the action it needs now (download, pause, resume, cancel, download again,
 * test, use), and its details on demand in the row below.
 */
import { useRef, useState } from 'react';
import type { ModelRow as Row } from '../../../../shared/models/view';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { formatBytes, percent } from '../../components/format';
import { ProgressBar } from '../../components/ProgressBar';
import { useModels } from '../../stores/models';
import { INSTALL_ACCEPT } from './OtherWays';
import { activeDownload, hostOf, languagesLong, languagesText, RUNNING, rtfText, speedMeaning, stateText, TASKS, TIMINGS, TIMINGS_LONG } from './modelText';

export interface Defaults {
  files: string;
  live: string;
}

/** The task a speech model can be the default for, or null (speakers, chat). */
export const speechTask = (task: Row['entry']['task']): 'files' | 'live' | null => (task === 'files' ? 'files' : task === 'live' ? 'live' : null);

function Accuracy({ row }: { row: Row }) {
  const wer = row.entry.wer[0];
  if (!wer) return <span className="muted">{speechTask(row.entry.task) ? 'Not published' : '—'}</span>;
  return (
    <span>
      <span className="mtable__nowrap">
        {wer.value}% <abbr title="word error rate">WER</abbr>
      </span>{' '}
      <a href={wer.source} target="_blank" rel="noreferrer" className="mtable__source">
        source
        <span className="sr-only">
          : {hostOf(wer.source)}, {wer.set}
        </span>
      </a>
    </span>
  );
}

function Speed({ row }: { row: Row }) {
  const id = row.entry.id;
  const speed = useModels((s) => s.speeds[id]);
  const test = useModels((s) => s.tests[id]);
  const run = useModels((s) => s.test);
  const testable = row.installed !== null && row.entry.task === 'files';
  return (
    <div className="mtable__speed">
      {speed ? (
        <span data-testid="measured-speed" title={`Measured on this computer: ${speedMeaning(speed)}`}>
          {rtfText(speed.rtf)}
        </span>
      ) : (
        <span className="muted">{testable ? 'Not tested' : '—'}</span>
      )}
      {testable && (
        <Button size="sm" variant="ghost" busy={test?.state === 'running'} onClick={() => void run(id)}>
          {speed ? 'Test again' : 'Test'} <span className="sr-only">{row.entry.name} on this computer</span>
        </Button>
      )}
      {test?.state === 'failed' && (
        <span className="field__error" role="alert">
          {test.message}
        </span>
      )}
    </div>
  );
}

/** The cell with the download's state and the action the model needs now. */
function Action({ row, defaults }: { row: Row; defaults: Defaults }) {
  const { entry, installed } = row;
  const live = useModels((s) => s.progress[entry.id]);
  const { download, pause, resume, cancel, setDefault } = useModels.getState();
  const d = activeDownload(live ?? row.download, installed !== null);
  const task = speechTask(entry.task);
  const name = <span className="sr-only">{entry.name}</span>;
  if (d && d.state !== 'failed') {
    const running = RUNNING.has(d.state);
    return (
      <div className="mtable__action">
        <ProgressBar
          value={d.state === 'downloading' || d.state === 'paused' ? percent(d.bytes, d.total) : null}
          label={`Download of ${entry.name}`}
          activity={stateText(d)}
          showFigures={false}
        />
        <span className="mtable__state" data-testid="download-state">
          {stateText(d)}
          {d.state === 'downloading' && d.speed > 0 && ` · ${formatBytes(d.speed)}/s`}
        </span>
        <span className="mtable__buttons">
          {running ? (
            <Button size="sm" onClick={() => void pause(entry.id)} disabled={d.state !== 'downloading' && d.state !== 'queued'}>
              Pause {name}
            </Button>
          ) : (
            <Button size="sm" variant="primary" onClick={() => void resume(entry.id)}>
              Resume {name}
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={() => void cancel(entry.id)}>
            Cancel <span className="sr-only">download of {entry.name}</span>
          </Button>
        </span>
      </div>
    );
  }
  if (d?.state === 'failed') {
    const changed = d.error?.kind === 'upstream_changed';
    // The mirror's file matches no published version: fetching it again gets the same file, so only the publisher's address can help.
    const mirrorWrong = d.error?.kind === 'mirror_mismatch';
    return (
      <div className="mtable__action">
        <span className="field__error" role="alert" data-testid="download-error">
          {d.error?.message ?? 'The download failed.'}
        </span>
        <span className="mtable__buttons">
          {mirrorWrong ? (
            <Button size="sm" variant="primary" onClick={() => void download(entry.id, true)}>
              Download from {hostOf(entry.url)} {name}
            </Button>
          ) : (
            <Button size="sm" variant="primary" onClick={() => void (changed ? download(entry.id) : resume(entry.id))}>
              {changed ? 'Download again' : 'Try again'} {name}
            </Button>
          )}
          {d.bytes > 0 && (
            <Button size="sm" variant="ghost" onClick={() => void cancel(entry.id)}>
              Cancel <span className="sr-only">download of {entry.name}</span>
            </Button>
          )}
          {mirrorWrong && (
            // Once the mirror holds the right file (or is cleared), the row's own Download goes through it again.
            <Button size="sm" variant="ghost" onClick={() => void cancel(entry.id)}>
              Dismiss <span className="sr-only">the message about {entry.name}</span>
            </Button>
          )}
        </span>
      </div>
    );
  }
  if (!installed)
    return (
      <Button size="sm" variant="primary" icon="download" onClick={() => void download(entry.id)}>
        Download {name}
      </Button>
    );
  if (task && defaults[task] !== entry.id)
    return (
      <Button size="sm" onClick={() => void setDefault(task, entry.id)}>
        {task === 'live' ? 'Use for live captions' : 'Use for files'} {name}
      </Button>
    );
  return null;
}

function Details({ row, defaults, id, onClose }: { row: Row; defaults: Defaults; id: string; onClose(): void }) {
  const { entry, installed } = row;
  const remove = useModels((s) => s.remove);
  const [confirming, setConfirming] = useState(false);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const task = speechTask(entry.task);
  const isDefault = task !== null && defaults[task] === entry.id;
  const speed = useModels((s) => s.speeds[entry.id]);
  const result = useModels((s) => (s.installResult?.for === entry.id ? s.installResult : null));
  return (
    <div className="mdetails" id={id} data-testid={`details-${entry.id}`}>
      {entry.note && <p className="mdetails__note">{entry.note}</p>}
      <dl className="facts mdetails__facts">
        <dt>Made for</dt>
        <dd>{TASKS[entry.task]}</dd>
        <dt>Languages</dt>
        <dd>{languagesLong(entry.languages)}</dd>
        <dt>Download</dt>
        <dd>{formatBytes(entry.sizeBytes)}</dd>
        {entry.wer.length > 0 && (
          <>
            <dt>Accuracy</dt>
            <dd>
              {entry.wer.map((w) => `${w.value}% WER on ${w.set}`).join('; ')}, as published by{' '}
              <a href={entry.wer[0]!.source} target="_blank" rel="noreferrer">
                {hostOf(entry.wer[0]!.source)}
              </a>
            </dd>
          </>
        )}
        <dt>Speed</dt>
        <dd>
          {speed ? `${rtfText(speed.rtf)} measured on this computer (${speedMeaning(speed)}).` : 'Not measured on this computer yet.'}
          {entry.rtf && (
            <>
              {' '}
              Published: {rtfText(entry.rtf.value)} ({entry.rtf.set}, by{' '}
              <a href={entry.rtf.source} target="_blank" rel="noreferrer">
                {hostOf(entry.rtf.source)}
              </a>
              ).
            </>
          )}
        </dd>
        {speed?.text && (
          <>
            <dt>Heard in the test</dt>
            <dd data-testid="test-text">“{speed.text}”</dd>
          </>
        )}
        {task && (
          <>
            <dt>Word times</dt>
            <dd>{TIMINGS_LONG[entry.wordTimings]}</dd>
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
      <div className="row mdetails__actions">
        {installed && !confirming && (
          <Button size="sm" variant="ghost" icon="trash" ref={deleteRef} onClick={() => setConfirming(true)}>
            Delete <span className="sr-only">{entry.name}</span> ({formatBytes(installed.bytes)})
          </Button>
        )}
        {installed && confirming && (
          <div className="mdetails__confirm" role="group" aria-label={`Delete ${entry.name}?`}>
            <p>
              {isDefault ? (
                <>
                  <strong>
                    {entry.name} is the model for {task === 'live' ? 'live captions' : 'files'}.
                  </strong>{' '}
                  Delete it? {task === 'live' ? 'Live captions' : 'Files'} will use PocketSphinx (built in) until you choose another model; download it again
                  and it is the model for {task === 'live' ? 'live captions' : 'files'} again.
                </>
              ) : (
                <>Delete {entry.name}?</>
              )}{' '}
              It frees {formatBytes(installed.bytes)}.
            </p>
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
          </div>
        )}
        {!installed && <InstallThis id={entry.id} name={entry.name} />}
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close details <span className="sr-only">of {entry.name}</span>
        </Button>
      </div>
      {result && (
        <p className={result.ok ? 'field__help' : 'field__error'} role={result.ok ? 'status' : 'alert'} data-testid="row-install-result">
          {result.text}
        </p>
      )}
    </div>
  );
}

/** Install this very model from a file (two models can share one archive name: the row says which is meant). */
function InstallThis({ id, name }: { id: string; name: string }) {
  const installFile = useModels((s) => s.installFile);
  const busy = useModels((s) => s.installing?.for === id);
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={fileRef}
        type="file"
        accept={INSTALL_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={`install-file-input-${id}`}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void installFile(f, id);
        }}
      />
      <Button size="sm" variant="ghost" icon="file" busy={busy} onClick={() => fileRef.current?.click()}>
        Install from a file… <span className="sr-only">as {name}</span>
      </Button>
    </>
  );
}

export function ModelRow({ row, defaults }: { row: Row; defaults: Defaults }) {
  const { entry, installed } = row;
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const task = speechTask(entry.task);
  const isDefault = task !== null && defaults[task] === entry.id;
  const detailsId = `model-${entry.id}-details`;
  return (
    <>
      <tr data-testid={`model-${entry.id}`} className={open ? 'mtable__row mtable__row--open' : 'mtable__row'}>
        <th scope="row" className="mtable__name">
          <span className="mtable__title">{entry.name}</span>
          <span className="mtable__badges">
            <span className="mtable__task">{TASKS[entry.task]}</span>
            {installed ? <Badge tone="ok">Installed</Badge> : null}
            {isDefault && <Badge tone="accent">In use for {task === 'live' ? 'live captions' : 'files'}</Badge>}
          </span>
        </th>
        <td className="mtable__num">{formatBytes(entry.sizeBytes)}</td>
        <td title={languagesLong(entry.languages)}>{languagesText(entry.languages)}</td>
        <td>
          <Accuracy row={row} />
        </td>
        <td>
          <Speed row={row} />
        </td>
        <td>{task ? TIMINGS[entry.wordTimings] : '—'}</td>
        <td>
          <div className="mtable__actions">
            <Action row={row} defaults={defaults} />
            <Button size="sm" variant="ghost" ref={toggleRef} aria-expanded={open} aria-controls={open ? detailsId : undefined} onClick={() => setOpen(!open)}>
              Details <span className="sr-only">of {entry.name}</span>
            </Button>
          </div>
        </td>
      </tr>
      {open && (
        <tr className="mtable__details">
          <td colSpan={7}>
            <Details
              row={row}
              defaults={defaults}
              id={detailsId}
              onClose={() => {
                setOpen(false);
                requestAnimationFrame(() => toggleRef.current?.focus());
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}
