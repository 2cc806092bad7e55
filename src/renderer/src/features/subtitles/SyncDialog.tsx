/** The Subtitles view's Sync dialog: every cue retimed from two points (a cue's time as it is, and as it should be). */
import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useSubtitles } from '../../stores/subtitles';
import { Actions } from './DialogActions';
import { cueTime, parseCueTime } from './time';

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
