/**
 * The captions panel of the main window: finished turns as lines with their
 * time and source, the growing turn lighter with its not-yet-final words
 * marked; it follows the newest line unless the user has scrolled back.
 */
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { sourceLabels } from '../../../../shared/audio-frame';
import type { LiveTurn } from '../../../../shared/captions';
import { formatClock } from '../../components/format';
import { useCaptions } from '../../stores/captions';

const Line = memo(function Line({ turn, labelled }: { turn: LiveTurn; labelled: boolean }) {
  return (
    <li className={`cap-line${turn.final ? '' : ' cap-line--growing'} cap-line--${turn.source}`} data-testid="caption-line" data-final={turn.final}>
      <span className="cap-line__meta">
        <time>{formatClock(turn.startMs)}</time>
        {labelled && <span className={`cap-src cap-src--${turn.source}`}>{sourceLabels[turn.source]}</span>}
      </span>
      <span className="cap-line__text">
        {turn.words.map((w, i) => (
          <span key={i} className={w.final ? undefined : 'cap-w--pending'}>
            {i > 0 ? ' ' : ''}
            {w.text}
          </span>
        ))}
      </span>
    </li>
  );
});

export function CaptionsPanel() {
  const order = useCaptions((s) => s.order);
  const turns = useCaptions((s) => s.turns);
  const labelled = useCaptions((s) => Object.keys(s.status).length > 1);
  const phase = useCaptions((s) => s.phase);
  const box = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const programmatic = useRef(false);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !following) return;
    programmatic.current = true;
    el.scrollTop = el.scrollHeight;
  }, [order, turns, following]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onScroll = () => {
      if (programmatic.current) {
        programmatic.current = false;
        return;
      }
      // Within a line of the bottom counts as following.
      setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < 40);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <div className="cap-panel-wrap">
      <div className="cap-panel" ref={box} tabIndex={0} role="log" aria-label="Captions" aria-live="off" data-testid="captions-panel">
        {order.length === 0 ? (
          <p className="muted cap-panel__empty">
            {phase === 'running' ? 'Listening… captions appear here as people speak.' : 'Captions appear here when you start.'}
          </p>
        ) : (
          <ol className="cap-lines">
            {order.map((k) => {
              const t = turns[k];
              return t ? <Line key={k} turn={t} labelled={labelled} /> : null;
            })}
          </ol>
        )}
      </div>
      {!following && (
        <button
          type="button"
          className="btn btn--secondary btn--sm cap-panel__jump"
          onClick={() => {
            setFollowing(true);
          }}
        >
          <span>Jump to latest</span>
        </button>
      )}
    </div>
  );
}
