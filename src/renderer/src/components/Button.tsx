/** Buttons: one look for every action, with an optional icon; icon-only buttons must carry an aria-label. */
import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Icon, type IconName } from './Icon';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: 'sm' | 'md';
  icon?: IconName;
  busy?: boolean;
  children?: ReactNode;
  /** For screens that hand focus back to this button (React 19 passes ref as a prop). */
  ref?: Ref<HTMLButtonElement>;
}

export function Button({ variant = 'secondary', size = 'md', icon, busy, children, className, type, disabled, ...rest }: ButtonProps) {
  const iconOnly = !children;
  const cls = ['btn', `btn--${variant}`, `btn--${size}`, iconOnly ? 'btn--icon' : '', busy ? 'btn--busy' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button type={type ?? 'button'} className={cls} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy ? <span className="spinner" aria-hidden="true" /> : icon ? <Icon name={icon} size={size === 'sm' ? 15 : 17} /> : null}
      {children !== undefined && <span>{children}</span>}
    </button>
  );
}
