/**
 * After a spelling correction: the offer to add the corrected word to the vocabulary (so new
 * transcripts and live captions listen for it) and to fix the same wrong form in the whole library.
 */
import { Button } from '../../components/Button';
import { useVocabulary } from '../../stores/vocabulary';
import { FixEverywhereDialog } from './FixEverywhereDialog';
import './correction-offer.css';

export function CorrectionOffer({ recordingId }: { recordingId: string }) {
  const offer = useVocabulary((s) => (s.offer?.recordingId === recordingId ? s.offer : null));
  const fixOpen = useVocabulary((s) => s.fix !== null);
  const { learn, dismiss, openFix } = useVocabulary.getState();
  return (
    <>
      {/* A live region that is always there, so the offer is read out when it appears. */}
      <div role="status" aria-live="polite" className="correction-offer__region">
        {offer && (
          <div className="correction-offer" data-testid="correction-offer">
            <span className="correction-offer__text">
              You changed “{offer.from}” to “{offer.to}”.{' '}
              {offer.known ? `“${offer.term}” is in your vocabulary.` : 'Teach it, so the next transcripts get it right?'}
            </span>
            <span className="correction-offer__actions">
              {!offer.known && (
                <Button size="sm" variant="primary" onClick={() => void learn()}>
                  Add “{offer.term}” to vocabulary
                </Button>
              )}
              <Button size="sm" onClick={() => void openFix()}>
                Fix everywhere…
              </Button>
              <Button size="sm" variant="ghost" icon="x" aria-label="Dismiss this suggestion" onClick={dismiss} />
            </span>
          </div>
        )}
      </div>
      {fixOpen && <FixEverywhereDialog />}
    </>
  );
}
