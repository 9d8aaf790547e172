import type { ConsoleOperationId } from '@credit/contract/console';
import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

/**
 * The console's pages, each a path under /console (the server answers the app's index.html at each), with the
 * operation each opens on: a session that may not call it is not shown the page.
 */
export const PAGES = [
  { id: 'program', path: '/console/program', reads: 'getProgramResults' },
  { id: 'offers', path: '/console/offers', reads: 'listOffers' },
  { id: 'webhooks', path: '/console/webhooks', reads: 'listWebhooks' },
  { id: 'events', path: '/console/events', reads: 'listEvents' },
  { id: 'audit', path: '/console/audit', reads: 'listAuditEvents' },
  { id: 'customers', path: '/console/customers', reads: 'listUsers' },
  { id: 'credentials', path: '/console/credentials', reads: 'getClientCredentials' },
  { id: 'sandbox', path: '/console/sandbox', reads: 'listSandboxClocks' },
] as const satisfies readonly { id: string; path: string; reads: ConsoleOperationId }[];
export type PageId = (typeof PAGES)[number]['id'];

const NAVIGATED = 'console:navigated';

const subscribe = (onChange: () => void) => {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
};

/**
 * The address, as the page and its filters read it: a link a colleague can open shows the same. `page` is null at
 * `/console/`, where the console shows the first page the session may see.
 */
export const useAddress = (): { page: PageId | null; query: URLSearchParams } => {
  const href = useSyncExternalStore(subscribe, () => window.location.href);
  const url = new URL(href);
  const page = PAGES.find((p) => url.pathname === p.path)?.id ?? null;
  return { page, query: url.searchParams };
};

/** Moves to `href` (same origin) without reloading: the history keeps every filter a person applied. */
export const navigate = (href: string, options: { replace?: boolean } = {}) => {
  if (options.replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  window.dispatchEvent(new Event(NAVIGATED));
};

/** `path?a=1&b=2` from the values that are set. */
export const hrefWith = (path: string, query: Record<string, string | undefined>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

/** A link inside the console: a plain click navigates in place; a modified click opens a tab as any link does. */
export const Link = ({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) => (
  <a
    href={href}
    onClick={(event: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(event);
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
        return;
      event.preventDefault();
      navigate(href);
    }}
    {...rest}
  />
);
