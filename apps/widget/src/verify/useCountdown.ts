import { useEffect, useState } from 'react';

/** Whole seconds until `deadline` (a Date.now() instant), ticking once a second; 0 once passed. */
export const useCountdown = (deadline: number | null): number | null => {
  const remaining = () => (deadline === null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(remaining);
  useEffect(() => {
    if (deadline === null) {
      setSeconds(null);
      return;
    }
    const tick = () => setSeconds(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return seconds;
};
