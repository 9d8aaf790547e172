import { useEffect, useState } from 'react';
import { ErrorScreen } from '../errors/ErrorScreen.tsx';

/** Failures already sent to the host as `error` events; tabs sharing one failed query report it once. */
const reported = new WeakSet<object>();

/**
 * A failed query inside a dashboard tab: the error screen at heading level 2, with a retry where it can help.
 * Switching back to a tab whose query still holds the same failure does not send the `error` event again.
 */
export function PanelError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const [report] = useState(() => !(typeof error === 'object' && error !== null && reported.has(error)));
  useEffect(() => {
    if (typeof error === 'object' && error !== null) reported.add(error);
  }, [error]);
  return <ErrorScreen error={error} level={2} onRetry={onRetry} report={report} />;
}
