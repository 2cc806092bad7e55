/** Settings → Vocabulary: the names and words new transcripts and live captions listen for; corrections add to it, and it can be edited here. */
import { useState } from 'react';
import { addTerm, cleanTerm, hasTerm, termProblem, VOCABULARY_MAX_CHARS, VOCABULARY_MAX_TERMS, VOCABULARY_MAX_WORDS } from '../../../../shared/vocabulary';
import { Button } from '../../components/Button';
import { useSettings } from '../../stores/settings';

/** One empty list, so a settings object without the field does not give the selector a new array each call. */
const NONE: string[] = [];

export function VocabularySection() {
  const vocabulary = useSettings((s) => s.settings.vocabulary ?? NONE);
  const update = useSettings((s) => s.update);
  const [draft, setDraft] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const add = async () => {
    const terms = draft.split(/[,\n]/).map(cleanTerm).filter(Boolean);
    if (terms.length === 0) return setNote('Type a word or a name first.');
    // Every term is kept whole or not at all: the ones that do not fit are named, with why, and stay in the box.
    const refused = terms.map(termProblem).filter((p): p is string => p !== null);
    const fitting = terms.filter((t) => termProblem(t) === null);
    let next = vocabulary;
    for (const t of fitting) next = addTerm(next, t);
    const added = next.length - vocabulary.length;
    if (added === 0 && refused.length === 0) {
      return setNote(
        terms.every((t) => hasTerm(vocabulary, t)) ? 'Already in your vocabulary.' : `Your vocabulary holds ${VOCABULARY_MAX_TERMS} terms, the most it can.`,
      );
    }
    if (added > 0 && !(await update({ vocabulary: next }))) return;
    if (refused.length === 0) {
      setDraft('');
      setNote(null);
      return;
    }
    setDraft(terms.filter((t) => termProblem(t) !== null).join(', '));
    setNote(
      `${added > 0 ? `Added ${added}. ` : ''}${refused.slice(0, 3).join(' ')}${refused.length > 3 ? ` ${refused.length - 3} more did not fit either.` : ''}`,
    );
  };
  return (
    <section className="card" aria-labelledby="vocabulary-title" data-testid="vocabulary-section">
      <h2 id="vocabulary-title">Vocabulary</h2>
      <p className="field__help">
        Names and words the recognizer should know. Every new transcript and live captions listen for them. When you correct a word’s spelling in a transcript,
        Verbatim offers to add it here.
      </p>
      {vocabulary.length > 0 ? (
        <ul className="taglist" aria-label="Your vocabulary" data-testid="vocabulary-list">
          {vocabulary.map((t) => (
            <li key={t} className="tag tag--removable">
              <span className="tag__name">{t}</span>
              <button
                type="button"
                className="tag__remove"
                aria-label={`Remove “${t}” from the vocabulary`}
                onClick={() => void update({ vocabulary: vocabulary.filter((x) => x !== t) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Empty so far.</p>
      )}
      <form
        className="field"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label htmlFor="vocabulary-add">Add words</label>
        <div className="keyform__row">
          <input
            id="vocabulary-add"
            type="text"
            value={draft}
            maxLength={VOCABULARY_MAX_CHARS * 10}
            autoComplete="off"
            spellCheck={false}
            aria-describedby="vocabulary-note"
            onChange={(e) => setDraft(e.target.value)}
          />
          <Button type="submit" size="sm">
            Add
          </Button>
        </div>
        <p id="vocabulary-note" className={note ? 'field__error' : 'field__help'} role={note ? 'alert' : undefined}>
          {note ??
            `Separate several with commas. Up to ${VOCABULARY_MAX_TERMS} terms, each at most ${VOCABULARY_MAX_WORDS} words and ${VOCABULARY_MAX_CHARS} characters.`}
        </p>
      </form>
    </section>
  );
}
