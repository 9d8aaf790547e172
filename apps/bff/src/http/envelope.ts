import type { Clock } from '../lib/clock.ts';

export interface Pagination {
  hasMore: boolean;
  nextCursor: string | null;
  total: number;
}

export const responseMeta = (requestId: string, clock: Clock, extra?: Record<string, unknown>) => ({
  requestId,
  timestamp: clock.now().toISOString(),
  ...extra,
});
