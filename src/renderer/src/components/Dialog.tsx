/**
 * A modal dialog on the native <dialog> element: the page behind is inert and
 * Escape closes it; the title labels it for screen readers. Focus starts on
 * the element marked `data-autofocus` (the field to fill, or the safe choice),
 * not on the first focusable element, which is the × button. Tab wraps inside
 * the dialog (the browser would otherwise move on to its own toolbar), and
 * focus goes back to the control that opened the dialog when it closes, also
 * when the dialog is unmounted while open.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
}

export function Dialog({ open, title, onClose, children, footer, width = 440 }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      d.showModal();
      d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && d.open) {
      d.close();
      restoreFocus(d, opener.current);
    }
  }, [open]);
  // Unmounted while open (the parent stopped rendering it): focus still goes home.
  useEffect(() => {
    const d = ref.current;
    return () => {
      if (d?.open) restoreFocus(d, opener.current);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      style={{ width }}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Tab' || !ref.current) return;
        const all = focusables(ref.current);
        if (!all.length) return;
        const first = all[0]!;
        const last = all[all.length - 1]!;
        const at = document.activeElement;
        if (e.shiftKey && (at === first || !ref.current.contains(at))) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (at === last || !ref.current.contains(at))) {
          e.preventDefault();
          first.focus();
        }
      }}
    >
      {open && (
        <>
          <header className="dialog__header">
            <h2 id={titleId}>{title}</h2>
            <Button variant="ghost" size="sm" icon="x" aria-label="Close" onClick={onClose} />
          </header>
          <div className="dialog__body">{children}</div>
          {footer && <footer className="dialog__footer">{footer}</footer>}
        </>
      )}
    </dialog>
  );
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** What Tab can reach in the dialog, in order (hidden inputs and collapsed parts left out). */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hidden && el.getClientRects().length > 0);
}

/** Back to the opener, unless the user already put focus somewhere else on the page. */
function restoreFocus(dialog: HTMLDialogElement, opener: HTMLElement | null): void {
  // After the dialog is gone from the page (unmount) the opener is reachable again: wait a frame.
  requestAnimationFrame(() => {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected || dialog.contains(active);
    if (lost && opener?.isConnected) opener.focus();
  });
}
