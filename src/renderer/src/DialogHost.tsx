/**
 * The one renderer of app-wide dialogs (GitHub Desktop's popup renderer):
 * stores/app's `dialog` names the one open, and each kind's module is loaded
 * the first time it is asked for. Once drawn, a kind stays mounted with its
 * last request, so closing hands focus back the way <Dialog> does and the
 * insights dialog keeps its answer when opened again for the same recording.
 */
import { lazy, Suspense, useState } from 'react';
import { useApp, type DialogKind, type DialogRequest } from './stores/app';

type Of<K extends DialogKind> = Extract<DialogRequest, { kind: K }>;

const ExportDialog = lazy(() => import('./features/library/ExportDialog').then((m) => ({ default: m.ExportDialog })));
const ImportSubtitlesDialog = lazy(() => import('./features/subtitles/ImportSubtitlesDialog').then((m) => ({ default: m.ImportSubtitlesDialog })));
const InsightsDialog = lazy(() => import('./features/chat/InsightsDialog').then((m) => ({ default: m.InsightsDialog })));
const TranslateSubtitlesDialog = lazy(() => import('./features/subtitles/TranslateSubtitlesDialog').then((m) => ({ default: m.TranslateSubtitlesDialog })));

export function DialogHost() {
  const dialog = useApp((s) => s.dialog);
  const close = useApp((s) => s.close);
  // The last request of each kind shown so far (adjusted during render: state that follows the store).
  const [last, setLast] = useState<Partial<{ [K in DialogKind]: Of<K> }>>({});
  if (dialog && last[dialog.kind] !== dialog) setLast({ ...last, [dialog.kind]: dialog });
  const exporting = last.export;
  const importing = last.importSubtitles;
  const insights = last.insights;
  const translating = last.translateSubtitles;
  return (
    <Suspense fallback={null}>
      {exporting && <ExportDialog open={dialog?.kind === 'export'} onClose={close} ids={exporting.ids} title={exporting.title} />}
      {/* Closed by passing no file (the dialog's own way of being closed). */}
      {importing && <ImportSubtitlesDialog file={dialog?.kind === 'importSubtitles' ? dialog.file : null} onto={importing.onto} onClose={close} />}
      {insights && (
        <InsightsDialog
          key={insights.recordingId}
          open={dialog?.kind === 'insights'}
          onClose={close}
          recordingId={insights.recordingId}
          title={insights.title}
        />
      )}
      {translating && (
        <TranslateSubtitlesDialog
          key={translating.recordingId}
          open={dialog?.kind === 'translateSubtitles'}
          onClose={close}
          recordingId={translating.recordingId}
        />
      )}
    </Suspense>
  );
}
