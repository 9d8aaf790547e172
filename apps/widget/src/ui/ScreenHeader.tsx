import { type ReactNode, useEffect, useRef } from 'react';

export interface ScreenHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  level?: 1 | 2;
  /** Moves focus to the heading when the screen appears, so a step change is announced and Tab starts here. */
  focusOnMount?: boolean;
  actions?: ReactNode;
}

export function ScreenHeader({ title, subtitle, level = 1, focusOnMount = false, actions }: ScreenHeaderProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Only once the user works inside the frame: on first load a focus call would pull the partner's page to the widget.
    if (focusOnMount && document.hasFocus()) headingRef.current?.focus();
  }, [focusOnMount]);
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="cw-screen-header">
      <div className="cw-screen-header__text">
        <Heading ref={headingRef} tabIndex={-1} className="cw-screen-header__title">
          {title}
        </Heading>
        {subtitle ? <p className="cw-screen-header__subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="cw-screen-header__actions">{actions}</div> : null}
    </div>
  );
}
