import type { CSSProperties } from 'react';

export interface SkeletonProps {
  width?: number | string;
  height?: number | string;
  /** Several text-like bars, the last one shorter. */
  lines?: number;
  /** Circle for the score dial. */
  shape?: 'rect' | 'circle';
  className?: string;
}

/** A grey placeholder shape; hidden from screen readers (wrap a loading region in <LoadingRegion>). */
export function Skeleton({ width = '100%', height = 16, lines, shape = 'rect', className }: SkeletonProps) {
  if (lines && lines > 1) {
    return (
      <div className={`cw-skeleton-lines ${className ?? ''}`} aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders with no identity.
            key={i}
            className="cw-skeleton"
            style={{ width: i === lines - 1 ? '60%' : width, height }}
          />
        ))}
      </div>
    );
  }
  const style: CSSProperties = { width, height: shape === 'circle' ? width : height };
  return (
    <span
      className={`cw-skeleton ${shape === 'circle' ? 'cw-skeleton--circle' : ''} ${className ?? ''}`}
      style={style}
      aria-hidden="true"
    />
  );
}

/** A busy region that says "Loading…" to screen readers while its skeletons show. */
export function LoadingRegion({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div role="status" aria-busy="true" className={`cw-loading ${className ?? ''}`}>
      <span className="cw-visually-hidden">{label}</span>
      {children}
    </div>
  );
}
