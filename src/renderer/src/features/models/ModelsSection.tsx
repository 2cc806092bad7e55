/** Settings → Models: the models in use for files and live captions, and the way to the Models screen, where models are compared, downloaded and tested. */
import { Button } from '../../components/Button';
import { useApp } from '../../stores/app';
import { useModels } from '../../stores/models';
import { useSettings } from '../../stores/settings';
import { DefaultPickers } from './DefaultPickers';

export function ModelsSection() {
  const rows = useModels((s) => s.list?.models) ?? [];
  const defaults = useSettings((s) => s.settings.models);
  const setScreen = useApp((s) => s.setScreen);
  const nameOf = (id: string) => (id ? (rows.find((r) => r.entry.id === id)?.entry.name ?? id) : 'PocketSphinx (built in)');
  return (
    <section className="card" aria-labelledby="models-title">
      <div className="card__head">
        <h2 id="models-title">Models</h2>
        <Button size="sm" icon="cpu" onClick={() => setScreen('models')}>
          Compare and download models
        </Button>
      </div>
      <p className="field__help" data-testid="settings-models-summary">
        On this computer, files are transcribed with {nameOf(defaults.files)} and live captions use {nameOf(defaults.live)}. Models run here with no network
        once downloaded.
      </p>
      <DefaultPickers />
    </section>
  );
}
