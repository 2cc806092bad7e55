/** The Subtitles view's Export dialog: a format (and VTT voice tags), saved or downloaded by stores/exports. */
import { useEffect, useId, useState } from 'react';
import { type SubtitleExportFormat } from '../../../../shared/subtitles/schema';
import { Dialog } from '../../components/Dialog';
import { exportRecordings } from '../../stores/exports';
import { useSubtitleTranslate } from '../../stores/subtitleTranslate';
import { Actions } from './DialogActions';

const formats: [SubtitleExportFormat, string][] = [
  ['srt', 'SubRip subtitles (.srt)'],
  ['vtt', 'WebVTT subtitles (.vtt)'],
  ['txt', 'Text (.txt)'],
  ['docx', 'Word document (.docx)'],
  ['json', 'JSON (.json)'],
];

/** Desktop: the save dialog (main's one saver; the file can be shown in its folder). Browser: a download. */
export async function exportSubtitles(id: string, format: SubtitleExportFormat, voices: boolean, bilingual = false): Promise<void> {
  // Main builds the file from what it has stored: exportRecordings sends the edits still on their way first.
  await exportRecordings({ ids: [id], format, voices, ...(bilingual ? { bilingual } : {}) });
}

export function ExportSubtitlesDialog({ open, onClose, id }: { open: boolean; onClose(): void; id: string }) {
  const [format, setFormat] = useState<SubtitleExportFormat>('srt');
  const [voices, setVoices] = useState(false);
  const [busy, setBusy] = useState(false);
  // A translated track also exports bilingual: the original line above the translation in each cue.
  const [translation, setTranslation] = useState<string | null>(null);
  const [bilingual, setBilingual] = useState(false);
  const fid = useId();
  useEffect(() => {
    if (!open) return;
    useSubtitleTranslate
      .getState()
      .translations(id)
      .then(
        (r) => setTranslation(r.of?.language ?? null),
        () => setTranslation(null),
      );
  }, [open, id]);
  const cues = format === 'srt' || format === 'vtt';
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
            await exportSubtitles(id, format, voices, cues && translation !== null && bilingual);
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
      {cues && translation !== null && (
        <fieldset className="fieldset">
          <legend>Text</legend>
          <label className="check">
            <input type="radio" name={`${fid}-text`} checked={!bilingual} onChange={() => setBilingual(false)} /> {translation} only
          </label>
          <label className="check">
            <input type="radio" name={`${fid}-text`} checked={bilingual} onChange={() => setBilingual(true)} /> Bilingual: the original line above the{' '}
            {translation}
          </label>
        </fieldset>
      )}
      {format === 'vtt' && (
        <label className="check">
          <input type="checkbox" checked={voices} onChange={(e) => setVoices(e.target.checked)} /> Name speakers with voice tags (&lt;v Name&gt;)
        </label>
      )}
    </Dialog>
  );
}

/** Moves the selected cues, or all of them, later or earlier by a typed amount (the ±100 ms keys, for any amount). */
