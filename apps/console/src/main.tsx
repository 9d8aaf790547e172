import { isCreditApiError } from '@credit/sdk/browser';
import { QueryCache, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { LocaleProvider } from './i18n.tsx';
import { ConsoleServicesProvider } from './services.tsx';
import { consoleClient, loadSession, type SessionState } from './session.ts';
import './styles.css';

/** A 4xx answers the same the second time: only network failures and 5xx are tried again. */
const shouldRetry = (failureCount: number, error: unknown) =>
  !(isCreditApiError(error) && error.status < 500) && failureCount < 2;

const Ended = ({ reason }: { reason: string }) => (
  <main id="main" className="gate">
    <h1>You are not signed in to the console</h1>
    <p>{reason}</p>
    <p>Console links come from your bank’s admin tools. Each opens once, within ten minutes of being made.</p>
  </main>
);

/** Reads the session first: signed in, the console; otherwise a page that says how to sign in. */
const Gate = () => {
  const [ended, setEnded] = useState<string>();
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({
          // The session ended while the page was open (signed out elsewhere, or its eight hours passed).
          onError: (error) => {
            if (isCreditApiError(error) && error.status === 401) setEnded(error.message);
          },
        }),
        defaultOptions: { queries: { retry: shouldRetry, staleTime: 30_000 }, mutations: { retry: false } },
      }),
  );
  const session = useQuery<SessionState>({ queryKey: ['session'], queryFn: loadSession, retry: 2 }, queryClient);
  const info = session.data?.kind === 'signed-in' ? session.data.info : undefined;
  const api = useMemo(() => (info ? consoleClient(info) : undefined), [info]);
  if (ended) return <Ended reason={ended} />;
  if (session.isPending) {
    return (
      <main id="main" className="gate">
        <p role="status">Opening the console…</p>
      </main>
    );
  }
  if (session.isError) {
    return (
      <main id="main" className="gate">
        <h1>The console could not start</h1>
        <p role="alert">{session.error.message} Reload the page in a minute; if it keeps failing, ask for a new link.</p>
      </main>
    );
  }
  if (session.data.kind === 'signed-out' || !info || !api) {
    return <Ended reason={session.data.kind === 'signed-out' ? session.data.reason : 'No console session.'} />;
  }
  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleServicesProvider session={info} api={api}>
        <App />
      </ConsoleServicesProvider>
    </QueryClientProvider>
  );
};

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <LocaleProvider>
        <Gate />
      </LocaleProvider>
    </StrictMode>,
  );
}
