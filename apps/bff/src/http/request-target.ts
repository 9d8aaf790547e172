/** A request target as the API reads it: its path, and its path with the query string. */
export interface ReadTarget {
  path: string;
  url: string;
}

/** `scheme://authority` of an absolute-form target (RFC 9112 §3.2.2), which a proxy sends. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * Characters a URL may not hold raw, on which Express (parseurl's `url.parse`) and a plain split at `?` would read
 * different paths: the one reading the API has is refused, so no operation is ever served at a path read two ways.
 */
const UNREADABLE = /[\t\n\f\r #\u00a0\ufeff]/;

export const UNREADABLE_TARGET =
  'The request target holds a character a URL may not hold raw (a space, a tab, a no-break space or #): percent-encode it.';
export const NOT_A_PATH = 'The request target is neither a path nor an absolute URL.';

/**
 * The one place a request target is read, before anything is dispatched. An absolute-form target is read as its path
 * and query; `*` (server-wide OPTIONS) is left to Express, which answers it as a page; anything else that is not a
 * path, or holds a character a URL may not, is refused (`refused`: why, for the 400).
 */
export const readTarget = (raw: string): ReadTarget | { refused: string } | { serverWide: true } => {
  if (raw === '*') return { serverWide: true };
  const authority = ABSOLUTE_FORM.exec(raw);
  const rest = authority ? raw.slice(authority[0].length) : raw;
  const url = authority && (rest === '' || rest.startsWith('?')) ? `/${rest}` : rest;
  if (url.charCodeAt(0) !== 47) return { refused: NOT_A_PATH };
  if (UNREADABLE.test(url)) return { refused: UNREADABLE_TARGET };
  const query = url.indexOf('?');
  return { path: query === -1 ? url : url.slice(0, query), url };
};
