import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

/** An empty state: what will be here and how to get it there. */
export function EmptyScreen({ icon, title, children, actions }: { icon: IconName; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="empty" aria-labelledby="empty-title">
      <div className="empty__icon">
        <Icon name={icon} size={28} />
      </div>
      <h1 id="empty-title" className="empty__title">
        {title}
      </h1>
      <div className="empty__body">{children}</div>
      {actions && <div className="empty__actions">{actions}</div>}
    </section>
  );
}
