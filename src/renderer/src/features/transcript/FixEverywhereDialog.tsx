/** Fix everywhere: every transcript where the wrong form appears, with a sentence of each, chosen by checkbox, changed at once (one undo in the toast that follows). */
import { useState } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ProgressBar } from '../../components/ProgressBar';
import { useVocabulary } from '../../stores/vocabulary';

export function FixEverywhereDialog() {
  const fix = useVocabulary((s) => s.fix);
  const { closeFix, applyFix } = useVocabulary.getState();
  // Every match is chosen at first; the user takes out the ones that are not this word.
  const [left, setLeft] = useState<Set<string>>(() => new Set());
  if (!fix) return null;
  const chosen = fix.matches.filter((m) => !left.has(m.recordingId));
  const words = chosen.reduce((n, m) => n + m.count, 0);
  return (
    <Dialog
      open
      width={620}
      title={`Fix “${fix.from}” everywhere`}
      onClose={closeFix}
      footer={
        <>
          <Button variant="ghost" onClick={closeFix}>
            Cancel
          </Button>
          <Button
            variant="primary"
            busy={fix.applying}
            disabled={fix.loading || chosen.length === 0}
            data-testid="fix-apply"
            onClick={() => void applyFix(chosen.map((m) => m.recordingId))}
          >
            {chosen.length === 0
              ? 'Change'
              : `Change ${words} ${words === 1 ? 'word' : 'words'} in ${chosen.length} ${chosen.length === 1 ? 'transcript' : 'transcripts'}`}
          </Button>
        </>
      }
    >
      {fix.applying && (
        <ProgressBar
          value={fix.progress && fix.progress.total > 0 ? (fix.progress.done / fix.progress.total) * 100 : 0}
          label="Changing the transcripts"
          activity={fix.progress ? `${fix.progress.done} of ${fix.progress.total} transcripts` : 'Changing the transcripts…'}
          showFigures={false}
        />
      )}
      {fix.loading ? (
        <p className="muted" data-autofocus tabIndex={-1}>
          Looking through the library…
        </p>
      ) : fix.error ? (
        <p className="field__error" role="alert">
          {fix.error}
        </p>
      ) : fix.matches.length === 0 ? (
        <p data-autofocus tabIndex={-1}>
          “{fix.from}” appears in no other transcript.
        </p>
      ) : (
        <>
          <p className="field__help" data-autofocus tabIndex={-1}>
            Each “{fix.from}” becomes “{fix.to}” in the transcripts you leave ticked
            {!fix.complete
              ? ` (the newest ${fix.matches.length}; it appears in many more)`
              : fix.total > fix.matches.length
                ? ` (the newest ${fix.matches.length} of ${fix.total})`
                : ''}
            . Undo brings them all back.
          </p>
          <ul className="fix-list" data-testid="fix-list">
            {fix.matches.map((m) => {
              const id = `fix-${m.recordingId}`;
              return (
                <li key={m.recordingId} className="fix-list__item">
                  <input
                    type="checkbox"
                    id={id}
                    checked={!left.has(m.recordingId)}
                    onChange={(e) => {
                      const next = new Set(left);
                      if (e.target.checked) next.delete(m.recordingId);
                      else next.add(m.recordingId);
                      setLeft(next);
                    }}
                  />
                  <label htmlFor={id}>
                    <span className="fix-list__title">
                      {m.title} <span className="muted">· {m.count === 1 ? 'once' : `${m.count} times`}</span>
                    </span>
                    <span className="fix-list__snippet">
                      {m.snippet.map((p, i) =>
                        p.match ? (
                          <span key={i}>
                            <del>{p.text}</del> <ins>{fix.to}</ins>
                          </span>
                        ) : (
                          <span key={i}>{p.text}</span>
                        ),
                      )}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Dialog>
  );
}
