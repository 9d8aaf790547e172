import { ALL_OPERATIONS } from '@credit/contract';
import { type ApiError, validationError } from '../core/api-error.ts';

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

const TEMPLATES = ALL_OPERATIONS.map((op) => op.path.split('/'));

/** The path parameter whose raw segment is not valid percent-encoding, by the operation templates of the contract. */
const malformedParam = (path: string): string | undefined => {
  const segments = path.split('/');
  for (const template of TEMPLATES) {
    if (template.length !== segments.length) continue;
    const fits = template.every((part, i) => part.startsWith('{') || part === segments[i]);
    if (!fits) continue;
    const index = template.findIndex((part, i) => part.startsWith('{') && !decodes(segments[i] as string));
    if (index >= 0) return (template[index] as string).slice(1, -1);
  }
  return undefined;
};

/**
 * Express's router decodes each path parameter while matching routes and throws a URIError (status 400)
 * for malformed percent-encoding (`/v1/users/%E0%A4%A`, `%ZZ`). A path that cannot be decoded cannot be
 * routed, so — like an unknown route — it is answered before authentication: `400 VALIDATION_ERROR`
 * naming the parameter (`path.userId`), or `path` when no operation has that shape. The one error
 * handler calls this; anything else passes through.
 */
export const malformedPathError = (error: unknown, path: string): ApiError | undefined => {
  if (!(error instanceof URIError) || (error as URIError & { status?: number }).status !== 400) return undefined;
  const param = malformedParam(path);
  return validationError(
    [{ field: param ? `path.${param}` : 'path', message: 'is not valid percent-encoding (UTF-8)' }],
    'The request path is not valid percent-encoding; see details.',
  );
};
