/**
 * The overlay's captions: the newest words, large, in at most 1–3 lines, high
 * contrast by default. One component for every overlay: the desktop's
 * always-on-top window, Document Picture-in-Picture and the pop-out window.
 */
import { sourceLabels } from '../../../../shared/audio-frame';
import { useCaptions } from '../../stores/captions';
import { useSettings } from '../../stores/settings';

const LINE_HEIGHT = 1.3;

export function CaptionsOverlay({ draggable = false }: { draggable?: boolean }) {
  const o = useSettings((s) => s.settings.captions.overlay);
  // Stable slices only: a selector that builds a new array each call would re-render forever.
  const order = useCaptions((s) => s.order);
  const turns = useCaptions((s) => s.turns);
  const recent = order.slice(-4).flatMap((k) => (turns[k] ? [turns[k]] : []));
  const labelled = useCaptions((s) => Object.keys(s.status).length > 1);
  const phase = useCaptions((s) => s.phase);
  const notice = useCaptions((s) => Object.values(s.status).find((x) => x?.state === 'reconnecting' || x?.state === 'failed')?.message ?? null);
  const bg = hexToRgba(o.backgroundColor, o.opacity);
  return (
    <div
      className={`cap-overlay${draggable ? ' cap-overlay--drag' : ''}`}
      style={{ background: bg, color: o.textColor, fontSize: `${o.fontSize}px` }}
      data-testid="captions-overlay"
    >
      <div className="cap-overlay__lines" style={{ maxHeight: `${o.lines * LINE_HEIGHT}em`, lineHeight: LINE_HEIGHT }} aria-live="polite" aria-atomic="false">
        {recent.length === 0 ? (
          <p className="cap-overlay__idle">{phase === 'running' ? 'Listening…' : 'Live captions are not running.'}</p>
        ) : (
          recent.map((t) => (
            <p key={t.key} className={t.final ? undefined : 'cap-overlay__growing'}>
              {labelled && <span className="cap-overlay__who">{sourceLabels[t.source]}: </span>}
              {t.text}
            </p>
          ))
        )}
      </div>
      {notice && (
        <p className="cap-overlay__notice" role="status">
          {notice}
        </p>
      )}
    </div>
  );
}

function hexToRgba(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255} ${(n >> 8) & 255} ${n & 255} / ${Math.round(alpha * 100)}%)`;
}
