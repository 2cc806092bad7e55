/** Settings → Watch folders: folders whose new audio and video files are transcribed by themselves, each with its own model, language, speakers and subtitles. */
import { useMemo, useState } from 'react';
import { WATCH_SUBTITLES, type WatchFolder, type WatchOptions } from '../../../../shared/ipc/watch';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { languageLabels } from '../../components/labels';
import { Switch } from '../../components/Switch';
import { serviceModelChoices } from '../../lib/serviceModels';
import { useModels } from '../../stores/models';
import { useWatch } from '../../stores/watch';
import './watch.css';

const subtitleLabels: Record<WatchOptions['subtitles'], string> = {
  none: 'None',
  srt: 'SRT (.srt)',
  vtt: 'WebVTT (.vtt)',
  both: 'SRT and WebVTT',
};
/** The service's pre-recorded models, from the one list Settings and live captions read too. */
const cloudModels = serviceModelChoices('prerecorded').map((m) => ({ id: m.id, label: `${m.label} (cloud)` }));

const blank: WatchOptions = { speechModel: null, languageCode: null, speakerLabels: false, speakersExpected: null, subtitles: 'srt' };

function summary(o: WatchOptions, modelName: (id: string) => string): string {
  const parts = [o.speechModel ? modelName(o.speechModel) : 'default model', o.languageCode ?? 'default language'];
  if (o.speakerLabels) parts.push(o.speakersExpected ? `${o.speakersExpected} speakers` : 'speaker labels');
  if (o.subtitles !== 'none') parts.push(`${subtitleLabels[o.subtitles]} beside each file`);
  return parts.join(' · ');
}

function FolderRow({ folder, modelName }: { folder: WatchFolder; modelName(id: string): string }) {
  const { update, remove } = useWatch.getState();
  return (
    <li className="watch-row" data-testid="watch-folder" aria-label={`Watch folder ${folder.name}`}>
      <div className="watch-row__main">
        <span className="watch-row__name">{folder.name}</span>{' '}
        {folder.problem ? <Badge tone="danger">Not watched</Badge> : folder.paused ? <Badge tone="neutral">Paused</Badge> : <Badge tone="ok">Watching</Badge>}
        <code className="path">{folder.path}</code>
        <span className="field__help">
          {summary(folder.options, modelName)}. {folder.taken} {folder.taken === 1 ? 'file' : 'files'} taken
          {folder.waiting > 0 ? `; ${folder.waiting} still arriving` : ''}.
        </span>
        {folder.problem && <span className="field__error">{folder.problem}</span>}
        {folder.empty.length > 0 && (
          <span className="field__error" data-testid="watch-empty">
            {folder.empty.length === 1
              ? `“${folder.empty[0]}” is empty (0 bytes), so it was not taken.`
              : `${folder.empty.length} files are empty (0 bytes), so they were not taken: ${folder.empty.map((n) => `“${n}”`).join(', ')}.`}{' '}
            Copy {folder.empty.length === 1 ? 'it' : 'them'} into the folder again, or remove {folder.empty.length === 1 ? 'it' : 'them'}: Verbatim takes a file
            as soon as it has sound in it.
          </span>
        )}
      </div>
      <div className="row">
        <Button
          size="sm"
          onClick={() => void update(folder.id, { paused: !folder.paused })}
          aria-label={`${folder.paused ? 'Resume' : 'Pause'} ${folder.name}`}
        >
          {folder.paused ? 'Resume' : 'Pause'}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void remove(folder.id)} aria-label={`Stop watching ${folder.name}`}>
          Stop watching
        </Button>
      </div>
    </li>
  );
}

export function WatchFoldersSection({ hostMode }: { hostMode: boolean }) {
  const folders = useWatch((s) => s.folders);
  const add = useWatch((s) => s.add);
  const list = useModels((s) => s.list);
  // Selected whole and filtered here: a selector that builds a new array each call would re-render without end.
  const installed = useMemo(() => list?.models.filter((m) => m.installed && m.entry.task === 'files') ?? [], [list]);
  const [path, setPath] = useState('');
  const [opts, setOpts] = useState<WatchOptions>(blank);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const modelName = (id: string) =>
    id === 'pocketsphinx' ? 'PocketSphinx' : (installed.find((m) => m.entry.id === id)?.entry.name ?? cloudModels.find((m) => m.id === id)?.label ?? id);
  const set = (patch: Partial<WatchOptions>) => setOpts({ ...opts, ...patch });
  const submit = async () => {
    setBusy(true);
    const problem = await add(path.trim(), opts);
    setBusy(false);
    setError(problem);
    if (!problem) {
      setPath('');
      setOpts(blank);
    }
  };
  return (
    <section className="card" aria-labelledby="watch-title" data-testid="watch-section">
      <h2 id="watch-title">Watch folders</h2>
      <p className="field__help">
        Audio and video files that appear in these folders are transcribed by themselves. A file is taken once it has finished copying, and never twice.
      </p>
      {folders.length > 0 && (
        <ul className="watch-list" aria-label="Watched folders">
          {folders.map((f) => (
            <FolderRow key={f.id} folder={f} modelName={modelName} />
          ))}
        </ul>
      )}
      <form
        className="subsection"
        aria-label="Watch a folder"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim() && !busy) void submit();
        }}
      >
        <div className="field">
          <label htmlFor="watch-path">Folder</label>
          <div className="keyform__row">
            <input
              id="watch-path"
              type="text"
              value={path}
              spellCheck={false}
              autoComplete="off"
              placeholder="/home/you/Recordings"
              aria-invalid={error ? true : undefined}
              aria-describedby="watch-path-note"
              onChange={(e) => setPath(e.target.value)}
            />
            {/* Host mode has no dialog: the page cannot see the other computer's folders, so the path is typed. */}
            {!hostMode && (
              <Button
                size="sm"
                onClick={() =>
                  void useWatch
                    .getState()
                    .pick()
                    .then((p) => p && setPath(p))
                }
              >
                Choose…
              </Button>
            )}
          </div>
          <p id="watch-path-note" className={error ? 'field__error' : 'field__help'} role={error ? 'alert' : undefined}>
            {error ??
              (hostMode
                ? 'The full path of a folder on the computer running Verbatim, inside a folder host mode was started with (--folder).'
                : 'The full path of the folder.')}
          </p>
        </div>
        <div className="grid2">
          <div className="field">
            <label htmlFor="watch-model">Model</label>
            <select id="watch-model" value={opts.speechModel ?? ''} onChange={(e) => set({ speechModel: e.target.value || null })}>
              <option value="">As in Settings</option>
              <option value="pocketsphinx">PocketSphinx (built in, this computer)</option>
              {installed.map((m) => (
                <option key={m.entry.id} value={m.entry.id}>
                  {m.entry.name} (this computer)
                </option>
              ))}
              {cloudModels.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="watch-language">Language</label>
            <select id="watch-language" value={opts.languageCode ?? ''} onChange={(e) => set({ languageCode: e.target.value || null })}>
              <option value="">As in Settings</option>
              {languageLabels.map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="grid2">
          <Switch
            label="Speaker labels"
            checked={opts.speakerLabels}
            onChange={(v) => set({ speakerLabels: v, speakersExpected: v ? opts.speakersExpected : null })}
          />
          {opts.speakerLabels && (
            <div className="field">
              <label htmlFor="watch-speakers">Speakers expected</label>
              <select
                id="watch-speakers"
                value={opts.speakersExpected ?? ''}
                onChange={(e) => set({ speakersExpected: e.target.value ? Number(e.target.value) : null })}
              >
                <option value="">Find out</option>
                {[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        <div className="field">
          <label htmlFor="watch-subtitles">Subtitles beside each file</label>
          <select id="watch-subtitles" value={opts.subtitles} onChange={(e) => set({ subtitles: e.target.value as WatchOptions['subtitles'] })}>
            {WATCH_SUBTITLES.map((s) => (
              <option key={s} value={s}>
                {subtitleLabels[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="row">
          <Button type="submit" variant="primary" busy={busy} disabled={!path.trim()}>
            Watch this folder
          </Button>
        </div>
      </form>
    </section>
  );
}
