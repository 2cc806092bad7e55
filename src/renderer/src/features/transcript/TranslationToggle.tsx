/** "Show translation": a saved live session's translated lines under its text, for a session that was translated. */
import { Button } from '../../components/Button';
import { languageName } from '../../components/status';
import { useLoadSessionExtras, useSessionExtras } from '../../stores/sessionExtras';
import './session-extras.css';

export function TranslationToggle({ recordingId }: { recordingId: string }) {
  useLoadSessionExtras(recordingId);
  const languages = useSessionExtras((s) => (s.recordingId === recordingId ? [...new Set(s.translations.map((t) => t.language))].join(',') : ''));
  const shown = useSessionExtras((s) => s.showTranslation);
  const setShown = useSessionExtras((s) => s.setShowTranslation);
  if (!languages) return null;
  const names = languages.split(',').map(languageName).join(', ');
  return (
    <Button
      size="sm"
      aria-pressed={shown}
      onClick={() => setShown(!shown)}
      title={`The ${names} translation of each line, under it`}
      data-testid="show-translation"
    >
      Show translation
    </Button>
  );
}
