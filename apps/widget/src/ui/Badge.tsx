import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'brand';

/** A short label such as "Pre-qualified" or "High impact": it carries words, so it never relies on colour alone. */
export function Badge({ tone = 'neutral', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return <span className={`cw-badge cw-badge--${tone} ${className ?? ''}`}>{children}</span>;
}
