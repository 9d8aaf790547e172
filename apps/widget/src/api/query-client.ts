import { isCreditApiError } from '@credit/sdk/browser';
import { focusManager, QueryCache, QueryClient } from '@tanstack/react-query';
import type { HostBridge } from '../bridge/host.ts';
import { statusOf } from '../errors/error-code.ts';
import { WidgetError } from '../errors/widget-error.ts';
import { meKey } from './me.ts';

/** A 4xx will answer the same the second time; only network failures and 5xx are worth another try. */
const shouldRetry = (failureCount: number, error: unknown) => {
  const status = statusOf(error) ?? 0;
  if (error instanceof WidgetError || (status >= 400 && status < 500)) return false;
  return failureCount < 2;
};

/**
 * The frame's one query cache. Screens stay current three ways: a query older than its `staleTime` is
 * fetched again when the frame becomes visible or takes focus; mutations invalidate the resources they
 * change (see each `api/` file's key); and the host's `refresh()` invalidates everything.
 */
export const createQueryClient = (bridge: Pick<HostBridge, 'onRefresh'>): QueryClient => {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // The consent ran out or was withdrawn elsewhere while a screen was open: the user record says which, and
      // the flow then asks for consent instead of showing the refusal.
      onError: (error) => {
        if (isCreditApiError(error, 'CONSENT_REQUIRED')) void queryClient.invalidateQueries({ queryKey: meKey });
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: true, staleTime: 60_000 },
      mutations: { retry: false },
    },
  });
  // react-query listens to visibilitychange only; inside an iframe, the frame taking focus (the customer
  // clicking into it, or the host's `open()`) is the other sign that someone is looking again.
  focusManager.setEventListener((onFocus) => {
    const listener = () => onFocus();
    window.addEventListener('visibilitychange', listener);
    window.addEventListener('focus', listener);
    return () => {
      window.removeEventListener('visibilitychange', listener);
      window.removeEventListener('focus', listener);
    };
  });
  bridge.onRefresh(() => void queryClient.invalidateQueries());
  return queryClient;
};
