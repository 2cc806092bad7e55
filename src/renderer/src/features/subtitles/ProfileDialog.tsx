/** The Subtitles view's Save profile dialog: the current rules, changed and saved under a name. */
import { useId, useState } from 'react';
import type { RulesProfile } from '../../../../shared/subtitles/index';
import { rulesProfileSchema } from '../../../../shared/subtitles/schema';
import { Dialog } from '../../components/Dialog';
import { currentProfile, useSubtitles } from '../../stores/subtitles';
import { Actions } from './DialogActions';

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
    const n = rulesProfileSchema.unwrap().shape[k] as { minValue?: number | null; maxValue?: number | null };
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
