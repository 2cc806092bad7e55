/** The Subtitles view's Shift dialog: the selected cues, or all, moved by a typed amount. */
import { useId, useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useSubtitles } from '../../stores/subtitles';
import { Actions } from './DialogActions';
import { parseShift } from './time';

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
