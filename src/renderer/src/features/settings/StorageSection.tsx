/** Settings → Storage: how much room the library takes, and how long it keeps recorded audio (text, edits and summaries always stay). */
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { useSettings } from '../../stores/settings';
import { formatBytes, runSentence, useStorage } from '../../stores/storage';

type Mode = 'forever' | 'days' | 'transcribed';

const modes: Array<{ value: Mode; label: string; help: string }> = [
  { value: 'forever', label: 'For ever', help: 'Every recording stays playable.' },
  { value: 'days', label: 'For a number of days', help: 'Audio older than that is removed; its transcript stays.' },
  { value: 'transcribed', label: 'Until it is transcribed', help: 'Audio is removed once its transcript is done.' },
];

export function StorageSection() {
  const rule = useSettings((s) => s.settings.audioRetention);
  const update = useSettings((s) => s.update);
  const { usage, busy, error, load, apply, undo } = useStorage();
  // null: the saved number; a string: what the user is typing.
  const [draft, setDays] = useState<string | null>(null);
  const days = draft ?? String(rule?.days ?? 30);
  // A run that removed nothing says so here; one that removed audio is the usage's lastRun, kept in main until undone or restarted.
  const [nothing, setNothing] = useState(false);
  useEffect(() => void load(), [load]);
  const mode: Mode = rule?.mode ?? 'forever';
  const daysValid = /^\d{1,4}$/.test(days) && Number(days) >= 1 && Number(days) <= 3650;

  const save = async (next: { mode: Mode; days: number }) => {
    setNothing(false);
    if (!(await update({ audioRetention: next }))) return;
    setDays(null);
    if (next.mode === 'forever') return;
    const run = await apply();
    if (run && run.recordings === 0) setNothing(true);
  };

  const total = usage ? usage.audioBytes + usage.databaseBytes : null;
  return (
    <section className="card" aria-labelledby="storage-title" data-testid="storage-section">
      <h2 id="storage-title">Storage</h2>
      <p data-testid="storage-usage">
        {usage && total !== null
          ? `The library takes ${formatBytes(total)}: ${formatBytes(usage.audioBytes)} of audio in ${usage.audioFiles} file${usage.audioFiles === 1 ? '' : 's'}, and ${formatBytes(usage.databaseBytes)} of transcripts and edits.`
          : 'Measuring the library…'}
        {usage && usage.trashBytes > 0 ? ` ${formatBytes(usage.trashBytes)} of removed audio can still be brought back until Verbatim restarts.` : ''}
      </p>
      <fieldset className="fieldset">
        <legend>Keep recorded audio</legend>
        {modes.map((m) => (
          <label key={m.value} className="check">
            <input
              type="radio"
              name="audio-retention"
              value={m.value}
              checked={mode === m.value}
              disabled={busy}
              onChange={() => void save({ mode: m.value, days: daysValid ? Number(days) : (rule?.days ?? 30) })}
            />
            <span>
              {m.label} <span className="muted">{m.help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {mode === 'days' && (
        <form
          className="field"
          onSubmit={(e) => {
            e.preventDefault();
            if (daysValid) void save({ mode: 'days', days: Number(days) });
          }}
        >
          <label htmlFor="retention-days">Days to keep audio</label>
          <div className="keyform__row">
            <input
              id="retention-days"
              type="number"
              min={1}
              max={3650}
              value={days}
              aria-invalid={!daysValid}
              aria-describedby="retention-days-help"
              onChange={(e) => setDays(e.target.value)}
            />
            <Button type="submit" size="sm" disabled={!daysValid || busy}>
              Apply
            </Button>
          </div>
          <p id="retention-days-help" className={daysValid ? 'field__help' : 'field__error'}>
            {daysValid ? 'Checked now, then every hour.' : 'Enter a whole number of days from 1 to 3650.'}
          </p>
        </form>
      )}
      {(usage?.lastRun || nothing) && (
        <p role="status" data-testid="storage-outcome">
          {usage?.lastRun ? runSentence(usage.lastRun) : 'No recorded audio was due for removal.'}{' '}
          {usage?.lastRun?.batchId && (
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => void undo(usage.lastRun!.batchId!)}>
              Undo
            </Button>
          )}
        </p>
      )}
      {error && (
        <p role="alert" className="field__error">
          {error}
        </p>
      )}
    </section>
  );
}
