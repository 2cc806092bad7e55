/** The footer of the Subtitles view's dialogs: Cancel, then the one thing the dialog does. */
import { Button } from '../../components/Button';

/** The footer of these dialogs: Cancel, then the one thing the dialog does. */
export function Actions({ onCancel, label, onAct, busy }: { onCancel(): void; label: string; onAct(): void; busy?: boolean }) {
  return (
    <>
      <Button onClick={onCancel}>Cancel</Button>
      <Button variant="primary" busy={busy} onClick={onAct}>
        {label}
      </Button>
    </>
  );
}
