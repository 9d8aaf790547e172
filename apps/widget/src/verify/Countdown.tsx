import { useEffect, useRef } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { useMessages } from '../i18n/index.ts';
import { messages } from './messages.ts';
import { useCountdown } from './useCountdown.ts';

export const WARNING_SECONDS = 60;

/**
 * The time left to answer, always visible. It is not a live region (a ticking clock would drown
 * everything else out); screen readers hear it once when a minute is left.
 */
export function Countdown({ deadline, onExpired }: { deadline: number; onExpired(): void }) {
  const t = useMessages(messages);
  const seconds = useCountdown(deadline) ?? 0;
  const warned = useRef(false);
  const expired = useRef(false);
  const warning = seconds <= WARNING_SECONDS;

  useEffect(() => {
    if (warning && seconds > 0 && !warned.current) {
      warned.current = true;
      announce(t.expiringSoon);
    }
    if (seconds === 0 && !expired.current) {
      expired.current = true;
      onExpired();
    }
  }, [seconds, warning, t, onExpired]);

  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return (
    <div className={`cw-countdown ${warning ? 'cw-countdown--warning' : ''}`}>
      <p className="cw-countdown__clock">
        <span>{t.timeLeft}: </span>
        <span role="timer" aria-label={t.timeLeftSpoken(minutes, rest)}>
          {minutes}:{String(rest).padStart(2, '0')}
        </span>
      </p>
      {warning ? (
        <p className="cw-countdown__warning">
          <span aria-hidden="true">⚠ </span>
          {t.expiringSoon}
        </p>
      ) : null}
    </div>
  );
}
