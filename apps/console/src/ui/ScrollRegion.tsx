import type { ReactNode } from 'react';

/** A table that scrolls inside its box (wide or long): named by its caption, and reachable by keyboard to scroll. */
export const ScrollRegion = ({ labelledBy, children }: { labelledBy: string; children: ReactNode }) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrollable region must be reachable by keyboard (WCAG 2.1.1); a named region, as a section without a heading cannot be.
  <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={labelledBy}>
    {children}
  </div>
);
