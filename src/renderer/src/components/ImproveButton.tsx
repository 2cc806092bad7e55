/** "Improve accuracy" of a live session, or what its improvement is doing: the Live captions screen and the transcript both show it. */
import { useState } from 'react';
import { errorMessage } from '../bridge';
import { Button } from './Button';

export function ImproveButton({ pending, improved, improve }: { pending: string | null; improved: boolean; improve(): Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {pending !== null ? (
        <span className="muted" role="status">
          Improving accuracy… ({pending})
        </span>
      ) : (
        <Button
          size="sm"
          icon="spark"
          busy={busy}
          onClick={() => {
            setBusy(true);
            setError(null);
            improve()
              .catch((e: unknown) => setError(errorMessage(e)))
              .finally(() => setBusy(false));
          }}
        >
          {improved ? 'Improve again' : 'Improve accuracy'}
        </Button>
      )}
      {error && (
        <span className="field__error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
