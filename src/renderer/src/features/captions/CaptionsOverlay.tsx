/**
 * The overlay's captions: the newest words, large, in at most 1–3 lines, high
 * contrast by default, each final line with its translation when one is asked
 * for. It can be rewound line by line (wheel, arrow keys, Page Up/Down) while
 * new captions arrive; "Back to live" (or End, Escape) returns. One component
 * for every overlay: the desktop's always-on-top window, Document
 * Picture-in-Picture and the pop-out window.
 */
import { useState, type KeyboardEvent, type WheelEvent } from 'react';
import { liveWho } from '../../../../shared/voices/live';
import { useCaptions } from '../../stores/captions';
import { useSettings } from '../../stores/settings';
import './captions-rewind.css';

const LINE_HEIGHT = 1.3;

export function CaptionsOverlay({ draggable = false }: { draggable?: boolean }) {
  const o = useSettings((s) => s.settings.captions.overlay);
  // Stable slices only: a selector that builds a new array each call would re-render forever.
  const order = useCaptions((s) => s.order);
  const turns = useCaptions((s) => s.turns);
  const translations = useCaptions((s) => s.translations);
  /** The newest line shown while rewound (a turn key), or null: live. */
  const [anchor, setAnchor] = useState<string | null>(null);
  const anchorAt = anchor === null ? -1 : order.indexOf(anchor);
  const end = anchorAt < 0 ? order.length : anchorAt + 1;
  const recent = order.slice(Math.max(0, end - 4), end).flatMap((k) => (turns[k] ? [turns[k]] : []));
  const newer = anchorAt < 0 ? 0 : order.length - end;
  const labelled = useCaptions((s) => Object.keys(s.status).length > 1);
  const phase = useCaptions((s) => s.phase);
  const notice = useCaptions((s) => Object.values(s.status).find((x) => x?.state === 'reconnecting' || x?.state === 'failed')?.message ?? null);
  const bg = hexToRgba(o.backgroundColor, o.opacity);

  /** Moves the newest shown line by `by` lines (negative: back); at the newest line it is live again. */
  const step = (by: number) => {
    if (order.length === 0) return;
    const from = anchorAt < 0 ? order.length - 1 : anchorAt;
    const to = Math.max(0, Math.min(order.length - 1, from + by));
    setAnchor(to >= order.length - 1 ? null : (order[to] ?? null));
  };
  const onKey = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, PageUp: -o.lines, PageDown: o.lines };
    if (e.key in moves) step(moves[e.key]!);
    else if ((e.key === 'End' || e.key === 'Escape') && anchor !== null) setAnchor(null);
    else if (e.key === 'Home' && order.length > 0) setAnchor(order[0]!);
    else return;
    e.preventDefault();
  };
  const onWheel = (e: WheelEvent) => {
    if (e.deltaY !== 0) step(e.deltaY < 0 ? -1 : 1);
  };

  return (
    <div
      className={`cap-overlay${draggable ? ' cap-overlay--drag' : ''}`}
      style={{ background: bg, color: o.textColor, fontSize: `${o.fontSize}px` }}
      data-testid="captions-overlay"
      data-rewound={anchor !== null}
      tabIndex={0}
      role="region"
      aria-label="Captions (arrow keys go back and forward, End returns to live)"
      onKeyDown={onKey}
      onWheel={onWheel}
    >
      <div
        className="cap-overlay__lines"
        style={{ maxHeight: `${o.lines * LINE_HEIGHT * (anyTranslation(recent, translations) ? 2 : 1)}em`, lineHeight: LINE_HEIGHT }}
        aria-live={anchor === null ? 'polite' : 'off'}
        aria-atomic="false"
      >
        {recent.length === 0 ? (
          <p className="cap-overlay__idle">{phase === 'running' ? 'Listening…' : 'Live captions are not running.'}</p>
        ) : (
          recent.map((t) => (
            <p key={t.key} className={t.final ? undefined : 'cap-overlay__growing'} data-testid="overlay-line">
              {liveWho(t, labelled) && (
                <span className="cap-overlay__who">
                  {liveWho(t, labelled)}
                  {t.revised && (
                    <span className="cap-overlay__revised" data-testid="overlay-revised" title="The speaker of this line was corrected after it was shown.">
                      {' '}
                      (corrected)
                    </span>
                  )}
                  :{' '}
                </span>
              )}
              {t.text}
              {t.final && translations[t.key] !== undefined && (
                <span className="cap-overlay__translation" data-testid="overlay-translation">
                  {translations[t.key]}
                </span>
              )}
            </p>
          ))
        )}
      </div>
      {anchor !== null && (
        <div className="cap-overlay__rewound">
          <span>{newer === 1 ? '1 newer line' : `${newer} newer lines`}</span>
          <button type="button" className="cap-overlay__live" onClick={() => setAnchor(null)} data-testid="overlay-back-to-live">
            Back to live
          </button>
        </div>
      )}
      {notice && (
        <p className="cap-overlay__notice" role="status">
          {notice}
        </p>
      )}
    </div>
  );
}

function anyTranslation(lines: { key: string; final: boolean }[], translations: Record<string, string>): boolean {
  return lines.some((t) => t.final && translations[t.key] !== undefined);
}

function hexToRgba(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255} ${(n >> 8) & 255} ${n & 255} / ${Math.round(alpha * 100)}%)`;
}
