import { type ApiError, validationError } from '../core/api-error.ts';

const NOT_PERCENT_ENCODING = 'is not valid percent-encoding (UTF-8)';
const MESSAGE = 'The request path is not valid percent-encoding; see details.';

/**
 * A path that cannot be decoded cannot be routed, so, like an unknown route, it is answered before authentication:
 * `400 VALIDATION_ERROR` naming the operation's parameter (`path.userId`, `/v1/users/%E0%A4%A`). The operation
 * table finds the parameter.
 */
export const undecodableParamError = (name: string): ApiError =>
  validationError([{ field: `path.${name}`, message: NOT_PERCENT_ENCODING }], MESSAGE);

/**
 * The same for a page outside the contract (`/sandbox/apply/%ZZ`): Express's router throws a URIError (status 400)
 * when it decodes a route parameter; the error handler answers it naming `path`. Anything else passes through.
 */
export const malformedPathError = (error: unknown): ApiError | undefined =>
  error instanceof URIError && (error as URIError & { status?: number }).status === 400
    ? validationError([{ field: 'path', message: NOT_PERCENT_ENCODING }], MESSAGE)
    : undefined;
