import type { ErrorCode } from '@credit/contract';
import { CreditApiError, type CreditError, CreditUnexpectedResponseError, type ErrorDetail } from './errors.ts';
import type { Route } from './route.ts';
import { API_ERROR_CODES } from './routes.generated.ts';

/**
 * Reads the token endpoint's own error body (RFC 6749), which only the server entry can call: the browser
 * entry leaves it out, and with it the OAuth error codes.
 */
export type CredentialsErrorParser = (body: unknown, status: number) => CreditError | undefined;

/** Checks a success body against the contract and throws `CreditResponseValidationError` when it does not match. */
export type ResponseValidator = (operationId: string, body: unknown, requestId: string | undefined) => void;

/** Ours (`meta.requestId`) first: the `X-Request-ID` header echoes the caller's own id when it sent one. */
const requestIdOf = (response: Response, body?: unknown): string | undefined => {
  const fromBody = (body as { meta?: { requestId?: unknown } } | undefined)?.meta?.requestId;
  return typeof fromBody === 'string' ? fromBody : (response.headers.get('x-request-id') ?? undefined);
};

/** The JSON body, or undefined for an empty one; a body that is not JSON is `unreadable`. */
const readJson = async (response: Response): Promise<{ value: unknown } | 'unreadable'> => {
  const text = await response.text();
  if (!text) return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return 'unreadable';
  }
};

type Fields = Record<string, unknown>;
export const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isDetail = (value: unknown): value is ErrorDetail =>
  isObject(value) && typeof value.field === 'string' && typeof value.message === 'string';

/**
 * The `error` member of the API's error envelope, checked as the contract's `ZErrorBody` would check it
 * (a known code, a message, well-formed optional fields), without zod. Undefined when it is not one.
 */
export const parseApiError = (
  value: unknown,
):
  | { code: ErrorCode; message: string; details?: ErrorDetail[]; retryAfter?: number; unlocksAt?: string; docUrl?: string }
  | undefined => {
  if (!isObject(value)) return undefined;
  const { code, message, details, retryAfter, unlocksAt, docUrl } = value;
  if (!API_ERROR_CODES.includes(code as ErrorCode) || typeof message !== 'string') return undefined;
  if (details !== undefined && !(Array.isArray(details) && details.every(isDetail))) return undefined;
  if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && (retryAfter as number) >= 0)) return undefined;
  if (unlocksAt !== undefined && typeof unlocksAt !== 'string') return undefined;
  if (docUrl !== undefined && typeof docUrl !== 'string') return undefined;
  return {
    code: code as ErrorCode,
    message,
    details: details?.map(({ field, message }) => ({ field, message })),
    retryAfter: retryAfter as number | undefined,
    unlocksAt,
    docUrl,
  };
};

/** Turns an error response into the typed error it stands for. */
export const errorFromResponse = async (
  response: Response,
  operationId: string,
  route: Route,
  credentialsError: CredentialsErrorParser | undefined,
): Promise<CreditError> => {
  const body = await readJson(response);
  const value = body === 'unreadable' ? undefined : body.value;
  const requestId = requestIdOf(response, value);
  const oauth = route.credentials ? credentialsError?.(value, response.status) : undefined;
  if (oauth) return oauth;
  // The spec makes `meta` optional on error bodies: only `error` decides whether this is the API's answer.
  const error = parseApiError(isObject(value) ? value.error : undefined);
  if (!error) {
    return new CreditUnexpectedResponseError(
      `${operationId}: HTTP ${response.status} without the API's error body`,
      response.status,
      operationId,
      requestId,
    );
  }
  return new CreditApiError({ ...error, status: response.status, requestId, operationId });
};

/**
 * The success body as the server sent it. With a `validate` it must match the contract's schema first (the
 * body is returned as received either way, so switching validation off never changes what callers get).
 */
export const readSuccess = async (
  response: Response,
  operationId: string,
  route: Route,
  validate: ResponseValidator | undefined,
): Promise<unknown> => {
  if (response.status === 204 || route.success === 'none') {
    await response.body?.cancel();
    return undefined;
  }
  const body = await readJson(response);
  if (body === 'unreadable') {
    throw new CreditUnexpectedResponseError(
      `${operationId}: the success body is not JSON`,
      response.status,
      operationId,
      requestIdOf(response),
    );
  }
  validate?.(operationId, body.value, requestIdOf(response, body.value));
  return body.value;
};

export const responseRequestId = requestIdOf;
