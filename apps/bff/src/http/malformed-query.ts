import type { ErrorDetail } from '../core/api-error.ts';

const decodes = (text: string) => {
  try {
    decodeURIComponent(text.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
};

/**
 * Query parameters whose percent-encoding is not valid UTF-8 (`?externalUserId=a%ED%A0%80`, `%ZZ`), one
 * detail each (`query.externalUserId`, or `query` when the name itself does not decode). The query parser
 * would quietly turn them into U+FFFD; refusing them keeps query and path to one rule (see malformed-path.ts).
 */
export const malformedQueryDetails = (url: string): ErrorDetail[] => {
  const start = url.indexOf('?');
  if (start < 0) return [];
  return url
    .slice(start + 1)
    .split('&')
    .flatMap((pair) => {
      const [name = '', value = ''] = pair.split(/=(.*)/s);
      if (!decodes(name)) return [{ field: 'query', message: 'has a parameter name that is not valid percent-encoding (UTF-8)' }];
      if (decodes(value)) return [];
      return [
        { field: `query.${decodeURIComponent(name.replace(/\+/g, ' '))}`, message: 'is not valid percent-encoding (UTF-8)' },
      ];
    });
};
