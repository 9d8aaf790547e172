import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { WidgetApiError } from './api/errors.ts';
import { readLaunchContext } from './bridge/launch.ts';
import { observeContentHeight } from './bridge/resize.ts';
import { connect } from './session/boot.ts';
import { setParentOrigin } from './session/session.ts';
import './theme/tokens.css';
import './theme/base.css';
import './ui/ui.css';

// Before anything else: take the token out of the address bar and tell the loader we are listening.
const launch = readLaunchContext();
setParentOrigin(launch.parentOrigin);
void connect(launch);

/** A 4xx will answer the same the second time; only network failures and 5xx are worth another try. */
const shouldRetry = (failureCount: number, error: unknown) => {
  if (error instanceof WidgetApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
};

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 60_000 },
    mutations: { retry: false },
  },
});

const rootElement = document.getElementById('root');
if (rootElement) {
  observeContentHeight(rootElement);
  createRoot(rootElement).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App launch={launch} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
