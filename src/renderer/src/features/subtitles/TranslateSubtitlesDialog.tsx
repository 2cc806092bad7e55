/**
 * The Subtitles view's Translate… dialog: a language (and the chat model), then
 * a second subtitle track with the same timings, translated cue by cue. The
 * cues done so far show as they finish; Stop keeps them, and translating into
 * the same language again continues where it stopped. The track opens in the
 * editor like any other.
 */
import { useEffect, useId, useState } from 'react';
import { insightNeeds } from '../../../../shared/chat/schema';
import { errorMessage } from '../../bridge';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ProgressBar } from '../../components/ProgressBar';
import { chatModelName } from '../../lib/modelName';
import { useApp } from '../../stores/app';
import { useChat } from '../../stores/chat';
import { useSubtitleTranslate, type Translations } from '../../stores/subtitleTranslate';

const LANGUAGES = ['English', 'French', 'German', 'Spanish', 'Italian', 'Portuguese', 'Dutch', 'Polish', 'Japanese', 'Chinese', 'Korean', 'Arabic'];

export function TranslateSubtitlesDialog({ open, onClose, recordingId }: { open: boolean; onClose(): void; recordingId: string }) {
  const models = useChat((s) => s.models);
  const defaultModel = useChat((s) => s.defaultModel);
  const progress = useSubtitleTranslate((s) => s.progress[recordingId]);
  const [language, setLanguage] = useState('French');
  const [modelId, setModelId] = useState('');
  const [known, setKnown] = useState<Translations | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [finished, setFinished] = useState<{ id: string; title: string; done: number; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const fid = useId();
  const writers = models.filter((m) => m.generative);
  const model = models.find((m) => m.id === (modelId || defaultModel)) ?? null;
  const need = models.length ? insightNeeds('translation', model) : null;
  const running = busy || progress?.running === true;

  useEffect(() => {
    if (!open) return;
    void useChat.getState().loadModels();
    const off = useSubtitleTranslate.getState().follow();
    useSubtitleTranslate
      .getState()
      .translations(recordingId)
      .then(setKnown, (e: unknown) => setError(errorMessage(e)));
    return off;
  }, [open, recordingId]);

  const existing = known?.tracks.find((t) => t.language.toLowerCase() === language.trim().toLowerCase()) ?? null;
  const openTrack = (id: string) => {
    onClose();
    useApp.getState().openTranscript(id);
    useApp.getState().setScreen('subtitles');
  };
  const run = async () => {
    if (!language.trim()) return setError('Type the language to translate into, like French or Japanese.');
    setBusy(true);
    setError(null);
    setFinished(null);
    try {
      const t = await useSubtitleTranslate.getState().translate({ id: recordingId, language: language.trim(), ...(model ? { model: model.id } : {}) });
      setFinished(t);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
      setKnown(
        await useSubtitleTranslate
          .getState()
          .translations(recordingId)
          .catch(() => known),
      );
    }
  };
  const percent = progress && progress.total ? Math.round((progress.done / progress.total) * 100) : 0;

  return (
    <Dialog
      open={open}
      title="Translate subtitles"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          {running ? (
            <Button variant="primary" onClick={() => void useSubtitleTranslate.getState().stop(recordingId)}>
              Stop
            </Button>
          ) : (
            <Button variant="primary" disabled={need !== null || Boolean(known?.of)} onClick={() => void run()}>
              {existing && existing.done > 0 && existing.done < existing.total ? 'Continue translating' : 'Translate'}
            </Button>
          )}
        </>
      }
    >
      <p className="muted">
        Makes a second subtitle track with the same timings, translated cue by cue with the cues around each one, so sentences that run over cues read well. You
        can edit it and export it alone or under the original.
      </p>
      <div className="field">
        <label htmlFor={`${fid}-lang`}>Translate into</label>
        <input
          id={`${fid}-lang`}
          list={`${fid}-langs`}
          value={language}
          maxLength={60}
          disabled={running}
          data-autofocus
          aria-describedby={`${fid}-state`}
          onChange={(e) => setLanguage(e.target.value)}
        />
        <datalist id={`${fid}-langs`}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
        <span id={`${fid}-state`} className="field__help">
          {existing
            ? existing.done >= existing.total
              ? `“${existing.title}” is translated. Translating again only redoes cues whose original changed.`
              : `“${existing.title}” has ${existing.done} of ${existing.total} cues translated; translating continues with the rest.`
            : 'Any language the model writes.'}
        </span>
      </div>
      {writers.length > 1 && (
        <div className="field">
          <label htmlFor={`${fid}-model`}>Model</label>
          <select id={`${fid}-model`} value={model?.id ?? ''} disabled={running} onChange={(e) => setModelId(e.target.value)}>
            {writers.map((m) => (
              <option key={m.id} value={m.id}>
                {chatModelName(m.id, models)}
              </option>
            ))}
          </select>
        </div>
      )}
      {known?.of && (
        <p className="banner banner--warn" role="alert">
          These subtitles are a translation into {known.of.language}. To translate again, open the original recording’s subtitles.
        </p>
      )}
      {need && (
        <p className="banner banner--warn" role="alert">
          {need}
        </p>
      )}
      {progress && (running || progress.done > 0) && (
        <div className="field" data-testid="translate-progress">
          <ProgressBar value={percent} label="Cues translated" showFigures={false} />
          <span className="field__help">
            {running
              ? progress.waitingUntil
                ? `${progress.done} of ${progress.total} cues translated. The model takes no more requests this minute; continuing at ${new Date(progress.waitingUntil).toLocaleTimeString()}…`
                : `Translating: ${progress.done} of ${progress.total} cues (${percent}%)…`
              : `${progress.done} of ${progress.total} cues translated.`}
          </span>
        </div>
      )}
      <div role="status" className="visually-hidden">
        {running ? 'Translating…' : finished ? `Translated ${finished.done} of ${finished.total} cues.` : ''}
      </div>
      {error && (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      {finished && (
        <p className="banner banner--ok">
          “{finished.title}” is ready: {finished.done} of {finished.total} cues.{' '}
          <Button size="sm" variant="primary" onClick={() => openTrack(finished.id)}>
            Open the translation
          </Button>
        </p>
      )}
      {!finished && known && known.tracks.length > 0 && (
        <ul>
          {known.tracks.map((t) => (
            <li key={t.id}>
              {t.title}: {t.done} of {t.total} cues{' '}
              <Button size="sm" variant="ghost" onClick={() => openTrack(t.id)} aria-label={`Open ${t.title}`}>
                Open
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
