import { isCreditApiError } from '@credit/sdk/browser';
import { QueryCache, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { LocaleProvider, useMessages } from './i18n.tsx';
import { gateMessages } from './messages.ts';
import { ConsoleServicesProvider } from './services.tsx';
import { consoleClient, loadSession, SessionHttpError, type SessionState } from './session.ts';
import './styles.css';

/** A 4xx answers the same the second time: only network failures and 5xx are tried again. */
const shouldRetry = (failureCount: number, error: unknown) =>
  !(isCreditApiError(error) && error.status < 500) && failureCount < 2;

/** No session: there never was one in this browser (`none`), or it ended while the page was open. */
const Ended = ({ reason }: { reason: 'none' | 'ended' }) => {
  const t = useMessages(gateMessages);
  return (
    <main id="main" className="gate">
      <h1>{t.notSignedIn}</h1>
      <p>{reason === 'ended' ? t.ended : t.noSession}</p>
      <p>{t.howToSignIn}</p>
    </main>
  );
};

/** Reads the session first: signed in, the console; otherwise a page that says how to sign in. */
const Gate = () => {
  const t = useMessages(gateMessages);
  const [ended, setEnded] = useState<'ended'>();
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({
          // The session ended while the page was open (signed out elsewhere, or its eight hours passed).
          onError: (error) => {
            if (isCreditApiError(error) && error.status === 401) setEnded('ended');
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
        <p role="status">{t.opening}</p>
      </main>
    );
  }
  if (session.isError) {
    return (
      <main id="main" className="gate">
        <h1>{t.couldNotStart}</h1>
        <p role="alert">
          {session.error instanceof SessionHttpError ? t.couldNotRead(session.error.status) : ''} {t.couldNotStartAdvice}
        </p>
      </main>
    );
  }
  if (session.data.kind === 'signed-out' || !info || !api) return <Ended reason="none" />;
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
