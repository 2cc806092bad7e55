import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

/** The placeholder of a screen that is not built yet: says what will be there. */
export function EmptyScreen({ icon, title, children }: { icon: IconName; title: string; children: ReactNode }) {
  return (
    <section className="empty" aria-labelledby="empty-title">
      <div className="empty__icon">
        <Icon name={icon} size={28} />
      </div>
      <h1 id="empty-title" className="empty__title">
        {title}
      </h1>
      <div className="empty__body">{children}</div>
    </section>
  );
}
