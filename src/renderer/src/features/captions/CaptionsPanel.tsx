/**
 * The captions panel of the main window: finished turns as lines with their
 * time and source (and their translation when one is asked for), the growing
 * turn lighter with its not-yet-final words marked. It follows the newest line
 * until the user scrolls back over the session; new lines keep arriving below
 * and "Back to live" returns. A line's time plays the recording from there.
 */
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { liveWho } from '../../../../shared/voices/live';
import type { LiveTurn } from '../../../../shared/captions';
import { formatClock } from '../../components/format';
import { useCaptions } from '../../stores/captions';
import { ReplayBar } from './ReplayBar';
import './captions-rewind.css';

const Line = memo(function Line({
  turn,
  labelled,
  playable,
  translation,
  onPlay,
}: {
  turn: LiveTurn;
  labelled: boolean;
  playable: boolean;
  translation: string | undefined;
  onPlay: (ms: number) => void;
}) {
  const clock = formatClock(turn.startMs);
  return (
    <li className={`cap-line${turn.final ? '' : ' cap-line--growing'} cap-line--${turn.source}`} data-testid="caption-line" data-final={turn.final}>
      <span className="cap-line__meta">
        {playable ? (
          <button type="button" className="cap-line__play" onClick={() => onPlay(turn.startMs)} aria-label={`Play from ${clock}`} data-testid="caption-play">
            <time>{clock}</time>
          </button>
        ) : (
          <time>{clock}</time>
        )}
        {liveWho(turn, labelled) && <span className={`cap-src cap-src--${turn.source}`}>{liveWho(turn, labelled)}</span>}
        {/* The service told apart the speakers again after the line was shown: a quiet mark, no interruption. */}
        {turn.revised && (
          <span className="cap-line__revised" data-testid="caption-revised" title="The speaker of this line was corrected after it was shown.">
            corrected
          </span>
        )}
      </span>
      <span className="cap-line__body">
        <span className="cap-line__text">
          {turn.words.map((w, i) => (
            <span key={i} className={w.final ? undefined : 'cap-w--pending'}>
              {i > 0 ? ' ' : ''}
              {w.text}
            </span>
          ))}
        </span>
        {turn.final && translation !== undefined && (
          <span className="cap-line__translation" data-testid="caption-translation">
            {translation}
          </span>
        )}
      </span>
    </li>
  );
});

export function CaptionsPanel() {
  const order = useCaptions((s) => s.order);
  const turns = useCaptions((s) => s.turns);
  const translations = useCaptions((s) => s.translations);
  const labelled = useCaptions((s) => Object.keys(s.status).length > 1);
  const phase = useCaptions((s) => s.phase);
  const recordedS = useCaptions((s) => s.recordedS);
  const replayFrom = useCaptions((s) => s.replayFrom);
  const box = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  /** How many lines there were when the user scrolled back: the rest arrived since. */
  const [seenLines, setSeenLines] = useState(0);

  /** Where following last put the view: a view above it was scrolled by the user, whose scroll event may still be on its way. */
  const snapped = useRef(-Infinity);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !following) return;
    // Scroll events come on the next frame: a line that grows before then must not pull the user back down.
    if (el.scrollTop < snapped.current - 40) return;
    el.scrollTop = el.scrollHeight;
    snapped.current = el.scrollTop;
  }, [order, turns, translations, following]);

  const followingNow = useRef(true);
  const orderLength = useRef(order.length);
  useEffect(() => {
    orderLength.current = order.length;
  }, [order.length]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onScroll = () => {
      // Within a line of the bottom counts as following (following's own scroll lands there; a scroll that changes nothing fires no event).
      const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      if (atEnd) snapped.current = el.scrollTop;
      if (followingNow.current && !atEnd) setSeenLines(orderLength.current);
      followingNow.current = atEnd;
      setFollowing(atEnd);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  const backToLive = () => {
    followingNow.current = true;
    snapped.current = -Infinity;
    setFollowing(true);
    box.current?.focus();
  };
  const newer = Math.max(0, order.length - seenLines);

  return (
    <section className="cap-panel-wrap" aria-label="Captions of this session">
      <ReplayBar />
      <div
        className="cap-panel"
        ref={box}
        tabIndex={0}
        role="log"
        aria-label="Captions"
        aria-live="off"
        data-testid="captions-panel"
        data-following={following}
        onKeyDown={(e) => {
          // End goes back to the newest line (and keeps following it); Escape too, as in the overlay.
          if ((e.key === 'End' || e.key === 'Escape') && !following) {
            e.preventDefault();
            backToLive();
          }
        }}
      >
        {order.length === 0 ? (
          <p className="muted cap-panel__empty">
            {phase === 'running' ? 'Listening… captions appear here as people speak.' : 'Captions appear here when you start.'}
          </p>
        ) : (
          <ol className="cap-lines">
            {order.map((k) => {
              const t = turns[k];
              return t ? (
                <Line
                  key={k}
                  turn={t}
                  labelled={labelled}
                  playable={recordedS > 0 && t.startMs < recordedS * 1000}
                  translation={translations[k]}
                  onPlay={replayFrom}
                />
              ) : null;
            })}
          </ol>
        )}
      </div>
      {!following && (
        <button type="button" className="btn btn--primary btn--sm cap-panel__jump" onClick={backToLive} data-testid="captions-back-to-live">
          <span>Back to live</span>
          {newer > 0 && <span className="cap-panel__newer">{newer === 1 ? '1 new line' : `${newer} new lines`}</span>}
        </button>
      )}
    </section>
  );
}
