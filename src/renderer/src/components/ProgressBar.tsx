/**
 * A progress bar with its figures (percent, speed, time left) in fixed-width
 * slots so updates never shift the layout. Without a value it shows an
 * indeterminate sweep: the work is moving even when its size is unknown.
 */
import { formatEta, formatRate } from './format';

export interface ProgressBarProps {
  /** 0..100, or null for indeterminate. */
  value: number | null;
  label: string;
  bytesPerSecond?: number | null;
  etaSeconds?: number | null;
  /** Shown in place of the figures when indeterminate, e.g. "Transcribing…". */
  activity?: string;
  showFigures?: boolean;
}

export function ProgressBar({ value, label, bytesPerSecond, etaSeconds, activity, showFigures = true }: ProgressBarProps) {
  const determinate = value !== null;
  return (
    <div className="progress">
      <div
        className={`progress__track${determinate ? '' : ' progress__track--indeterminate'}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={determinate ? Math.round(value) : undefined}
        aria-valuetext={determinate ? `${Math.round(value)}%` : (activity ?? 'In progress')}
      >
        <div className="progress__fill" style={determinate ? { transform: `scaleX(${value / 100})` } : undefined} />
      </div>
      {showFigures && (
        <div className="progress__figures" aria-hidden="true">
          {determinate ? (
            <>
              <span className="progress__pct">{Math.floor(value)}%</span>
              <span className="progress__rate">{formatRate(bytesPerSecond)}</span>
              <span className="progress__eta">{formatEta(etaSeconds)}</span>
            </>
          ) : (
            <span className="progress__activity">{activity ?? 'Working…'}</span>
          )}
        </div>
      )}
    </div>
  );
}
