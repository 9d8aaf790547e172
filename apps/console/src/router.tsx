import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

/** The console's pages, each a path under /console (the server answers the app's index.html at each). */
export const PAGES = [
  { id: 'program', path: '/console/program', label: 'Program' },
  { id: 'offers', path: '/console/offers', label: 'Offers' },
  { id: 'webhooks', path: '/console/webhooks', label: 'Webhooks' },
  { id: 'events', path: '/console/events', label: 'Events' },
  { id: 'audit', path: '/console/audit', label: 'Audit trail' },
  { id: 'customers', path: '/console/customers', label: 'Customers' },
  { id: 'credentials', path: '/console/credentials', label: 'Credentials' },
  { id: 'sandbox', path: '/console/sandbox', label: 'Sandbox' },
] as const;
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

/** The address, as the page and its filters read it: a link a colleague can open shows the same. */
export const useAddress = (): { page: PageId; query: URLSearchParams } => {
  const href = useSyncExternalStore(subscribe, () => window.location.href);
  const url = new URL(href);
  const page = PAGES.find((p) => url.pathname === p.path)?.id ?? 'program';
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
