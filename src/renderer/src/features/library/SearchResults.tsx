/** Search hits over the whole library (or what one person said): the sentence with the match marked, and its time; a hit opens the transcript there. */
import { Fragment, useRef } from 'react';
import { Button } from '../../components/Button';
import { formatClock } from '../../components/format';
import { useApp } from '../../stores/app';
import { useSearch } from '../../stores/search';

export function SearchResults() {
  const query = useSearch((s) => s.query);
  const hits = useSearch((s) => s.hits);
  const loading = useSearch((s) => s.loading);
  const error = useSearch((s) => s.error);
  const openTranscript = useApp((s) => s.openTranscript);
  const clear = useSearch((s) => s.clear);
  const person = useSearch((s) => s.person);
  const setPerson = useSearch((s) => s.setPerson);
  const who = person ? ` said by ${person.name}` : '';
  const title = useRef<HTMLHeadingElement>(null);
  return (
    <section className="search" aria-labelledby="search-title" data-testid="search-results">
      <header className="search__header">
        <h2 id="search-title" tabIndex={-1} ref={title}>
          {loading
            ? 'Searching…'
            : hits.length === 0
              ? `No matches for “${query.trim()}”${who}`
              : `${hits.length}${hits.length === 50 ? '+' : ''} ${hits.length === 1 ? 'match' : 'matches'} for “${query.trim()}”${who}`}
        </h2>
        {person && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setPerson(null);
              // The button goes with the narrowing: focus moves to the results' heading, which now counts everyone's.
              title.current?.focus();
            }}
          >
            Search what everyone said
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={clear}>
          Clear search
        </Button>
      </header>
      {error && (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      {!loading && !error && hits.length === 0 && (
        <p className="muted">Words are matched from their start (“transcr” finds “transcription”); put a phrase in quotes to match it exactly.</p>
      )}
      <ol className="hits">
        {hits.map((h, i) => (
          <li key={`${h.recordingId}-${h.startMs}-${i}`}>
            <button
              type="button"
              className="hit"
              data-testid="search-hit"
              data-open-id={h.recordingId}
              onClick={() => openTranscript(h.recordingId, h.startMs)}
            >
              <span className="hit__top">
                <span className="hit__title">{h.title}</span>
                <span className="hit__time">{formatClock(h.startMs)}</span>
              </span>
              <span className="hit__snippet">
                {h.snippet.map((p, k) => (
                  <Fragment key={k}>{p.match ? <mark>{p.text}</mark> : p.text}</Fragment>
                ))}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
