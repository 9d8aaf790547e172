import type { TMeta } from '@credit/contract';
import type { Clock } from '../lib/clock.ts';

/** Every answer's `meta` (the contract's ResponseMeta), with what an operation adds to it (`extra`). */
export const responseMeta = (
  requestId: string,
  clock: Clock,
  extra?: Record<string, unknown>,
): TMeta & Record<string, unknown> => ({
  requestId,
  timestamp: clock.now().toISOString(),
  ...extra,
});
