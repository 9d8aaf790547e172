import { consoleScopeOf } from '@credit/contract/console';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { type ConsoleLocale, useLocale, useMessages } from './i18n.tsx';
import { gateMessages, shellMessages, stateMessages } from './messages.ts';
import { AuditPage } from './pages/Audit.tsx';
import { CredentialsPage } from './pages/Credentials.tsx';
import { CustomersPage } from './pages/Customers.tsx';
import { EventsPage } from './pages/Events.tsx';
import { OffersPage } from './pages/Offers.tsx';
import { ProgramPage } from './pages/Program.tsx';
import { SandboxPage } from './pages/Sandbox.tsx';
import { WebhooksPage } from './pages/Webhooks.tsx';
import { Link, PAGES, type PageId, useAddress } from './router.tsx';
import { type ConsoleServices, useConsole } from './services.tsx';
import { SessionHttpError, signOut } from './session.ts';
import { describeError } from './ui/States.tsx';

/** The pages this session may open: the operation each opens on is one it may call (and Sandbox, a sandbox client's). */
const pagesFor = ({ may, session }: Pick<ConsoleServices, 'may' | 'session'>) =>
  PAGES.filter((p) => may(p.reads) && (p.id !== 'sandbox' || session.environment === 'sandbox'));

/** A page the session may not use, asked for by its address: says why, instead of failing on its first call. */
const Unavailable = ({ page }: { page: PageId | null }) => {
  const t = useMessages(shellMessages);
  const needed = page ? consoleScopeOf(PAGES.find((p) => p.id === page)?.reads ?? '') : undefined;
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{page ? t.pages[page] : t.console}</h1>
      </div>
      <div className="state" role="status">
        <p className="state-title">{t.unavailable}</p>
        <p>{needed ? t.unavailableWhy(needed) : t.nothingAvailable}</p>
      </div>
    </>
  );
};

const PageBody = ({ page, opens, query }: { page: PageId | null; opens: boolean; query: URLSearchParams }) => {
  if (!page || !opens) return <Unavailable page={page} />;
  switch (page) {
    case 'program':
      return <ProgramPage query={query} />;
    case 'offers':
      return <OffersPage query={query} />;
    case 'webhooks':
      return <WebhooksPage query={query} />;
    case 'events':
      return <EventsPage query={query} />;
    case 'audit':
      return <AuditPage query={query} />;
    case 'customers':
      return <CustomersPage query={query} />;
    case 'credentials':
      return <CredentialsPage />;
    case 'sandbox':
      return <SandboxPage query={query} />;
  }
};

const SignOut = () => {
  const { session } = useConsole();
  const { locale } = useLocale();
  const t = useMessages(shellMessages);
  const gate = useMessages(gateMessages);
  const states = useMessages(stateMessages);
  const out = useMutation({ mutationFn: () => signOut(session.csrfToken, locale) });
  return (
    <>
      <button type="button" className="button button-quiet" onClick={() => out.mutate()} disabled={out.isPending}>
        {t.signOut}
      </button>
      {out.isError ? (
        <p role="alert" className="field-problem">
          {out.error instanceof SessionHttpError ? gate.signOutFailed(out.error.status) : describeError(out.error, states).advice}
        </p>
      ) : null}
    </>
  );
};

/** The signed-in console: who and for which bank, the pages, and the page the address names. */
export const App = () => {
  const services = useConsole();
  const { session } = services;
  const { page: asked, query } = useAddress();
  const { locale, setLocale } = useLocale();
  const shown = pagesFor(services);
  // At /console/ the first page the session may open; a page it may not is named, and says so.
  const page = asked ?? shown[0]?.id ?? null;
  // A production client's Sandbox page says what the sandbox is; every other page needs the operation it opens on.
  const opens = shown.some((p) => p.id === page) || (page === 'sandbox' && services.may('listSandboxClocks'));
  const t = useMessages(shellMessages);
  const languageId = useId();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = t.title(page ? t.pages[page] : t.console, session.clientName);
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
            {shown.map((p) => (
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
        <PageBody page={page} opens={opens} query={query} />
      </main>
    </>
  );
};
