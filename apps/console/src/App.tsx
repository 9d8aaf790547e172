import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { type ConsoleLocale, useLocale, useMessages } from './i18n.tsx';
import { shellMessages, stateMessages } from './messages.ts';
import { AuditPage } from './pages/Audit.tsx';
import { CredentialsPage } from './pages/Credentials.tsx';
import { CustomersPage } from './pages/Customers.tsx';
import { EventsPage } from './pages/Events.tsx';
import { OffersPage } from './pages/Offers.tsx';
import { ProgramPage } from './pages/Program.tsx';
import { SandboxPage } from './pages/Sandbox.tsx';
import { WebhooksPage } from './pages/Webhooks.tsx';
import { Link, PAGES, useAddress } from './router.tsx';
import { useConsole } from './services.tsx';
import { signOut } from './session.ts';
import { describeError } from './ui/States.tsx';

const SignOut = () => {
  const { session } = useConsole();
  const t = useMessages(shellMessages);
  const states = useMessages(stateMessages);
  const out = useMutation({ mutationFn: () => signOut(session.csrfToken) });
  return (
    <>
      <button type="button" className="button button-quiet" onClick={() => out.mutate()} disabled={out.isPending}>
        {t.signOut}
      </button>
      {out.isError ? (
        <p role="alert" className="field-problem">
          {out.error instanceof Error ? out.error.message : describeError(out.error, states).advice}
        </p>
      ) : null}
    </>
  );
};

/** The signed-in console: who and for which bank, the pages, and the page the address names. */
export const App = () => {
  const { session } = useConsole();
  const { page, query } = useAddress();
  const { locale, setLocale } = useLocale();
  const t = useMessages(shellMessages);
  const languageId = useId();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = t.title(t.pages[page], session.clientName);
    // After a move between pages (not on the first load), focus goes to the new page's heading, as a page load would.
    if (first.current) first.current = false;
    else main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [page, session.clientName, t]);
  return (
    <>
      <a className="skip-link" href="#main">
        {t.skip}
      </a>
      <header className="top">
        <div className="brand">
          <span className="bank">{session.clientName}</span>
          <span className="muted">
            {t.console}
            {session.environment === 'sandbox' ? ` · ${t.sandbox}` : ''}
          </span>
        </div>
        <nav aria-label={t.navLabel}>
          <ul>
            {PAGES.filter((p) => p.id !== 'sandbox' || session.environment === 'sandbox').map((p) => (
              <li key={p.id}>
                <Link href={p.path} aria-current={p.id === page ? 'page' : undefined}>
                  {t.pages[p.id]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>
            {session.staff.email} <span className={`badge badge-role`}>{t.roles[session.role]}</span>
          </span>
          <label className="language" htmlFor={languageId}>
            {t.language}
            <select id={languageId} value={locale} onChange={(e) => setLocale(e.target.value as ConsoleLocale)}>
              <option value="en" lang="en">
                English
              </option>
              <option value="es" lang="es">
                Español
              </option>
            </select>
          </label>
          <SignOut />
        </div>
      </header>
      <main id="main" ref={main}>
        {page === 'program' ? <ProgramPage query={query} /> : null}
        {page === 'offers' ? <OffersPage query={query} /> : null}
        {page === 'webhooks' ? <WebhooksPage query={query} /> : null}
        {page === 'events' ? <EventsPage query={query} /> : null}
        {page === 'audit' ? <AuditPage query={query} /> : null}
        {page === 'customers' ? <CustomersPage query={query} /> : null}
        {page === 'credentials' ? <CredentialsPage /> : null}
        {page === 'sandbox' ? <SandboxPage query={query} /> : null}
      </main>
    </>
  );
};
