/** Export transcripts to files: the library's selection or the open transcript, drawn by DialogHost (stores/app `show({ kind: 'export' })`). */
import { useState } from 'react';
import type { ExportFormat } from '../../../../shared/library';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { useApp } from '../../stores/app';
import { exportRecordings } from '../../stores/exports';

export function ExportDialog({ open, onClose, ids, title }: { open: boolean; onClose(): void; ids: string[]; title?: string }) {
  const [format, setFormat] = useState<ExportFormat>('txt');
  const [busy, setBusy] = useState(false);
  const desktop = useApp((s) => s.info?.mode === 'electron');
  const run = async () => {
    setBusy(true);
    await exportRecordings({ ids, format });
    setBusy(false);
    onClose();
  };
  return (
    <Dialog
      open={open}
      title={title ?? `Export ${ids.length} ${ids.length === 1 ? 'transcript' : 'transcripts'}`}
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" busy={busy} onClick={() => void run()}>
            Export
          </Button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="export-format">Format</label>
        <select id="export-format" data-autofocus value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
          <option value="txt">Text (.txt)</option>
          <option value="srt">Subtitles (.srt)</option>
          <option value="vtt">Web subtitles (.vtt)</option>
          <option value="docx">Word document (.docx)</option>
          <option value="md">Markdown note (.md)</option>
          <option value="json">Everything (.json)</option>
        </select>
        <p className="field__help">
          {!desktop
            ? 'Saved to your browser’s downloads, one file per transcript.'
            : ids.length === 1
              ? 'Next, you choose where to save it.'
              : 'Next, you choose a folder; each transcript is saved there as its own file.'}
        </p>
      </div>
    </Dialog>
  );
}
