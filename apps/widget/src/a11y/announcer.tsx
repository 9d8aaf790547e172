import { useEffect, useState } from 'react';

let setMessage: ((message: string) => void) | null = null;
let clearTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Says something to screen-reader users without moving focus ("Answer saved", "2 minutes left").
 * The region is rendered once by App; messages are cleared after a while so a repeat is announced again.
 */
export const announce = (message: string): void => {
  if (!setMessage) return;
  const set = setMessage;
  set('');
  // A new text node in the next frame is what makes screen readers speak a repeated message.
  requestAnimationFrame(() => set(message));
  clearTimeout(clearTimer);
  clearTimer = setTimeout(() => set(''), 7000);
};

export function LiveAnnouncer() {
  const [message, updateMessage] = useState('');
  useEffect(() => {
    setMessage = updateMessage;
    return () => {
      setMessage = null;
    };
  }, []);
  return (
    <div className="cw-visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
