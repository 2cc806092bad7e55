/** The Subtitles view's dialogs: export, sync by two points, save a rules profile (importing a file is ImportSubtitlesDialog). */
import { useId, useState } from 'react';
import type { RulesProfile } from '../../../../shared/subtitles/index';
import { rulesProfileSchema, type SubtitleExportFormat } from '../../../../shared/subtitles/schema';
import { saveOrDownload } from '../../lib/saveExport';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { useApp } from '../../stores/app';
import { currentProfile, saved, useSubtitles } from '../../stores/subtitles';
import { toast } from '../../stores/toasts';
import { cueTime, parseCueTime, parseShift } from './time';

const formats: [SubtitleExportFormat, string][] = [
  ['srt', 'SubRip subtitles (.srt)'],
  ['vtt', 'WebVTT subtitles (.vtt)'],
  ['txt', 'Text (.txt)'],
  ['docx', 'Word document (.docx)'],
  ['json', 'JSON (.json)'],
];

/** The footer of these dialogs: Cancel, then the one thing the dialog does. */
function Actions({ onCancel, label, onAct, busy }: { onCancel(): void; label: string; onAct(): void; busy?: boolean }) {
  return (
    <>
      <Button onClick={onCancel}>Cancel</Button>
      <Button variant="primary" busy={busy} onClick={onAct}>
        {label}
      </Button>
    </>
  );
}

/** Desktop: the save dialog (main's one saver; the file can be shown in its folder). Browser: a download. */
export async function exportSubtitles(id: string, format: SubtitleExportFormat, voices: boolean): Promise<void> {
  // Main builds the file from what it has stored: the edits still on their way go first.
  await saved();
  await saveOrDownload({ from: 'subtitles', id, format, voices }, { desktop: useApp.getState().info?.mode === 'electron', notify: toast });
}

export function ExportSubtitlesDialog({ open, onClose, id }: { open: boolean; onClose(): void; id: string }) {
  const [format, setFormat] = useState<SubtitleExportFormat>('srt');
  const [voices, setVoices] = useState(false);
  const [busy, setBusy] = useState(false);
  const fid = useId();
  return (
    <Dialog
      open={open}
      title="Export subtitles"
      onClose={onClose}
      footer={
        <Actions
          onCancel={onClose}
          label="Export"
          busy={busy}
          onAct={async () => {
            setBusy(true);
            await exportSubtitles(id, format, voices);
            setBusy(false);
            onClose();
          }}
        />
      }
    >
      <div className="field">
        <label htmlFor={fid}>Format</label>
        <select id={fid} data-autofocus value={format} onChange={(e) => setFormat(e.target.value as SubtitleExportFormat)}>
          {formats.map(([f, label]) => (
            <option key={f} value={f}>
              {label}
            </option>
          ))}
        </select>
        <span className="field__help">Every format carries your edits: corrected words, speaker names and cue changes.</span>
      </div>
      {format === 'vtt' && (
        <label className="check">
          <input type="checkbox" checked={voices} onChange={(e) => setVoices(e.target.checked)} /> Name speakers with voice tags (&lt;v Name&gt;)
        </label>
      )}
    </Dialog>
  );
}

/** Moves the selected cues, or all of them, later or earlier by a typed amount (the ±100 ms keys, for any amount). */
export function ShiftDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const count = useSubtitles((s) => s.cues.length);
  const selected = useSubtitles((s) => s.selection.length);
  const run = useSubtitles((s) => s.run);
  const [by, setBy] = useState('');
  const [all, setAll] = useState(selected === 0);
  const [error, setError] = useState<string | null>(null);
  const fid = useId();
  const apply = () => {
    const ms = parseShift(by);
    if (ms === null) return setError('Type how far to move them, like +2.5 (later), −0.250 (earlier) or 80 ms.');
    if (!all && selected === 0) return setError('No cue is selected.');
    if (!run('shift', { ms, all })) return setError('Nothing would move: the cues are already at the start.');
    onClose();
  };
  return (
    <Dialog open={open} title="Shift times" onClose={onClose} footer={<Actions onCancel={onClose} label="Shift" onAct={apply} />}>
      <label className="field">
        <span>By</span>
        <input
          value={by}
          onChange={(e) => {
            setBy(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => e.key === 'Enter' && apply()}
          placeholder="+2.5 or −0.250"
          aria-describedby={`${fid}-help`}
          aria-invalid={error ? true : undefined}
          data-autofocus
        />
        <span id={`${fid}-help`} className="field__help">
          Seconds, or a time like 1:02.5; + is later, − is earlier. “80 ms” works too. Nothing moves before 0:00.
        </span>
      </label>
      <fieldset className="fieldset">
        <legend>Which cues</legend>
        <label className="check">
          <input type="radio" name={`${fid}-which`} checked={!all} disabled={selected === 0} onChange={() => setAll(false)} />
          <span>{selected === 1 ? 'The selected cue' : `The ${selected} selected cues`}</span>
        </label>
        <label className="check">
          <input type="radio" name={`${fid}-which`} checked={all} onChange={() => setAll(true)} />
          <span>All {count} cues</span>
        </label>
      </fieldset>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

export function SyncDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const cues = useSubtitles((s) => s.cues);
  const run = useSubtitles((s) => s.run);
  const first = cues[0]?.start ?? 0;
  const last = cues[cues.length - 1]?.start ?? 0;
  const [v, setV] = useState({ af: cueTime(first), at: cueTime(first), bf: cueTime(last), bt: cueTime(last) });
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const [af, at, bf, bt] = [v.af, v.at, v.bf, v.bt].map(parseCueTime);
    if ([af, at, bf, bt].some((x) => x === null)) return setError('Every field needs a time like 1:02.500.');
    if (af === bf) return setError('The two cue times must differ.');
    if (!run('sync', { a: { from: af!, to: at! }, b: { from: bf!, to: bt! } }))
      return setError('Those points would not move anything, or would run time backwards.');
    onClose();
  };
  const field = (k: keyof typeof v, label: string) => (
    <label className="field">
      <span>{label}</span>
      <input value={v[k]} onChange={(e) => setV({ ...v, [k]: e.target.value })} data-autofocus={k === 'at' ? true : undefined} />
    </label>
  );
  return (
    <Dialog open={open} title="Sync by two points" width={520} onClose={onClose} footer={<Actions onCancel={onClose} label="Sync" onAct={apply} />}>
      <p className="muted">
        Say where two cues should be. Everything is moved and stretched to match: a constant offset and a different frame rate are fixed together.
      </p>
      <div className="sync-grid">
        {field('af', 'First cue now at')}
        {field('at', 'should be at')}
        {field('bf', 'Second cue now at')}
        {field('bt', 'should be at')}
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

const profileLabels: Partial<Record<keyof RulesProfile, string>> = {
  maxCharsPerLine: 'Characters per line',
  maxLines: 'Lines per cue',
  minDurationMs: 'Shortest cue',
  maxDurationMs: 'Longest cue',
  maxCps: 'Characters a second',
  minGapMs: 'Gap between cues',
  leadOutMs: 'Lead-out into silence',
  pauseMs: 'The pause that starts a cue',
};

/** The ranges of the contract's rulesProfileSchema, for the fields' min/max and the messages. */
const profileLimits = Object.fromEntries(
  (Object.keys(profileLabels) as (keyof RulesProfile)[]).map((k) => {
    const n = rulesProfileSchema.shape[k] as { minValue?: number | null; maxValue?: number | null };
    return [k, [n.minValue ?? 0, n.maxValue ?? 0]];
  }),
) as Partial<Record<keyof RulesProfile, [number, number]>>;

export function ProfileDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const base = useSubtitles(currentProfile);
  const saveProfile = useSubtitles((s) => s.saveProfile);
  const [p, setP] = useState<RulesProfile>({ ...base, name: `${base.name} (mine)` });
  const [invalid, setInvalid] = useState<{ field: keyof RulesProfile; message: string } | null>(null);
  const errorId = useId();
  const num = (k: keyof RulesProfile, label: string, step = 1) => (
    <label className="field">
      <span>{label}</span>
      <input
        type="number"
        step={step}
        min={profileLimits[k]?.[0]}
        max={profileLimits[k]?.[1]}
        value={Number(p[k] ?? 0)}
        aria-invalid={invalid?.field === k || undefined}
        aria-describedby={invalid?.field === k ? errorId : undefined}
        onChange={(e) => setP({ ...p, [k]: Number(e.target.value) })}
      />
    </label>
  );
  const save = async () => {
    const id = `user-${p.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 60)}`;
    const profile = { ...p, id, warnCps: p.warnCps && p.warnCps < p.maxCps ? p.warnCps : null };
    // Checked here with the contract's own schema, so a value out of range is named in words, beside its field.
    const checked = rulesProfileSchema.safeParse(profile);
    if (!checked.success) {
      const field = checked.error.issues[0]?.path[0] as keyof RulesProfile;
      const limits = profileLimits[field];
      setInvalid({
        field,
        message: limits
          ? `${profileLabels[field]} must be between ${limits[0]} and ${limits[1]}.`
          : field === 'name'
            ? 'Give the profile a name (up to 80 characters).'
            : `${profileLabels[field] ?? field} is not valid.`,
      });
      return;
    }
    if (checked.data.minDurationMs >= checked.data.maxDurationMs) {
      setInvalid({ field: 'maxDurationMs', message: 'The longest cue must be longer than the shortest.' });
      return;
    }
    setInvalid(null);
    if (await saveProfile(checked.data)) onClose();
  };
  return (
    <Dialog
      open={open}
      title="Save a rules profile"
      width={560}
      onClose={onClose}
      footer={<Actions onCancel={onClose} label="Save profile" onAct={() => void save()} />}
    >
      <label className="field">
        <span>Name</span>
        <input
          data-autofocus
          value={p.name}
          maxLength={80}
          aria-invalid={invalid?.field === 'name' || undefined}
          aria-describedby={invalid?.field === 'name' ? errorId : undefined}
          onChange={(e) => setP({ ...p, name: e.target.value })}
        />
      </label>
      <div className="sync-grid">
        {num('maxCharsPerLine', 'Characters per line')}
        {num('maxLines', 'Lines per cue')}
        {num('minDurationMs', 'Shortest cue (ms)')}
        {num('maxDurationMs', 'Longest cue (ms)')}
        {num('maxCps', 'Characters a second, at most', 0.5)}
        {num('minGapMs', 'Gap between cues (ms)')}
        {num('leadOutMs', 'Lead-out into silence (ms)')}
        {num('pauseMs', 'A pause this long starts a cue (ms)')}
      </div>
      {invalid && (
        <p id={errorId} className="field__error" role="alert">
          {invalid.message}
        </p>
      )}
    </Dialog>
  );
}
