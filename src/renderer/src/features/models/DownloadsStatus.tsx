/** The status bar's model downloads: the one running (and how many more), its percent, a button to the Models screen. */
import { Icon } from '../../components/Icon';
import { percent } from '../../components/format';
import { useApp } from '../../stores/app';
import { useModels } from '../../stores/models';
import { RUNNING } from './modelText';

export function DownloadsStatus() {
  const progress = useModels((s) => s.progress);
  const rows = useModels((s) => s.list?.models);
  const setScreen = useApp((s) => s.setScreen);
  const running = Object.values(progress).filter((d) => RUNNING.has(d.state) || d.state === 'paused');
  if (running.length === 0) return null;
  const d = running.find((r) => r.state !== 'paused') ?? running[0]!;
  const name = rows?.find((r) => r.entry.id === d.id)?.entry.name ?? d.id;
  const pct = percent(d.bytes, d.total);
  const what =
    d.state === 'paused'
      ? 'paused'
      : d.state === 'verifying'
        ? 'checking'
        : d.state === 'unpacking'
          ? 'unpacking'
          : pct === null
            ? 'starting'
            : `${Math.floor(pct)}%`;
  return (
    <button type="button" className="statusbar__link" data-testid="model-download-status" onClick={() => setScreen('models')}>
      <Icon name="download" size={13} /> {name}: {what}
      {running.length > 1 ? ` (+${running.length - 1} more)` : ''}
    </button>
  );
}
