/** The path of an operation with its `{name}` placeholders filled in, each value URL-encoded. */
export const fillPath = (template: string, params: Record<string, unknown> | undefined): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`Missing path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });

/** `?a=1&b=x` from the defined values of `query` (arrays repeat the key, dates go as ISO 8601), or ''. */
export const queryString = (query: Record<string, unknown> | undefined): string => {
  if (!query) return '';
  const search = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    search.append(key, value instanceof Date ? value.toISOString() : String(value));
  };
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) add(key, item);
    else add(key, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** Joins a base URL (absolute, or '' for same-origin calls from a page) and a path without doubling the slash. */
export const joinUrl = (baseUrl: string, pathAndQuery: string): string => `${baseUrl.replace(/\/+$/, '')}${pathAndQuery}`;
