/** Small status labels: region, job state, tags. Colour always comes with text. */
import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'accent' | 'ok' | 'warn' | 'danger' | 'info';

export function Badge({ tone = 'neutral', children, title, pulse }: { tone?: Tone; children: ReactNode; title?: string; pulse?: boolean }) {
  return (
    <span className={`badge badge--${tone}`} title={title}>
      {pulse && <span className="badge__pulse" aria-hidden="true" />}
      {children}
    </span>
  );
}
