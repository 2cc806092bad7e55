/** The toast stack, bottom right; polite for info, assertive for errors. It shows the list it is given (stores/toasts keeps it). */
import { Button } from './Button';
import { Icon } from './Icon';

export interface Toast {
  id: number;
  tone: 'info' | 'ok' | 'error';
  text: string;
  action?: { label: string; run(): void };
}

export interface ToastsProps {
  toasts: readonly Toast[];
  dismiss(id: number): void;
  /** Hover or focus on the stack holds the toasts' clocks. */
  hold(on: boolean): void;
}

export function Toasts({ toasts, dismiss, hold }: ToastsProps) {
  return (
    <div
      className="toasts"
      aria-live="polite"
      onMouseEnter={() => hold(true)}
      onMouseLeave={() => hold(false)}
      onFocus={() => hold(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) hold(false);
      }}
    >
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
          <Icon name={t.tone === 'error' ? 'alert' : t.tone === 'ok' ? 'check' : 'info'} />
          <span className="toast__text">{t.text}</span>
          {t.action && (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                t.action?.run();
                dismiss(t.id);
              }}
            >
              {t.action.label}
            </Button>
          )}
          <Button size="sm" variant="ghost" icon="x" aria-label="Dismiss" onClick={() => dismiss(t.id)} />
        </div>
      ))}
    </div>
  );
}
