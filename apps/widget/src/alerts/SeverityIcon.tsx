import type { TAlert } from '@credit/contract';

/**
 * A shape per severity (circle, triangle, octagon), so severity reads without colour. Drawn, not an emoji:
 * some devices lack the glyphs. Decorative: the badge's word says the same.
 */
export function SeverityIcon({ severity }: { severity: TAlert['severity'] }) {
  return (
    <svg className="cw-severity-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      {severity === 'info' ? (
        <>
          <circle cx="8" cy="8" r="7" className="cw-severity-icon__shape" />
          <rect x="7" y="7" width="2" height="5" rx="0.5" className="cw-severity-icon__mark" />
          <circle cx="8" cy="4.5" r="1.1" className="cw-severity-icon__mark" />
        </>
      ) : severity === 'warning' ? (
        <>
          <path d="M8 1 15.5 14.5H0.5Z" className="cw-severity-icon__shape" />
          <rect x="7" y="5.5" width="2" height="5" rx="0.5" className="cw-severity-icon__mark" />
          <circle cx="8" cy="12.4" r="1.1" className="cw-severity-icon__mark" />
        </>
      ) : (
        <>
          <path d="M5 0.5h6L15.5 5v6L11 15.5H5L0.5 11V5Z" className="cw-severity-icon__shape" />
          <rect x="7" y="3.5" width="2" height="6" rx="0.5" className="cw-severity-icon__mark" />
          <circle cx="8" cy="12" r="1.1" className="cw-severity-icon__mark" />
        </>
      )}
    </svg>
  );
}
