/** The models in use for files and for live captions (the built-in PocketSphinx or an installed model), as two pickers; on the Models screen and in Settings. */
import type { ModelRow } from '../../../../shared/models/view';
import { useModels } from '../../stores/models';
import { useSettings } from '../../stores/settings';

function Picker({ task, rows, value }: { task: 'files' | 'live'; rows: ModelRow[]; value: string }) {
  const setDefault = useModels((s) => s.setDefault);
  const choices = rows.filter((r) => r.installed && r.entry.task === task);
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

export function DefaultPickers() {
  const rows = useModels((s) => s.list?.models) ?? [];
  const defaults = useSettings((s) => s.settings.models);
  return (
    <div className="grid2 default-pickers">
      <Picker task="files" rows={rows} value={defaults.files} />
      <Picker task="live" rows={rows} value={defaults.live} />
    </div>
  );
}
