import type { Clock } from '../lib/clock.ts';

export const responseMeta = (requestId: string, clock: Clock, extra?: Record<string, unknown>) => ({
  requestId,
  timestamp: clock.now().toISOString(),
  ...extra,
});
