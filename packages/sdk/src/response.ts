import { envelope, listEnvelope, type Operation, ZErrorBody, ZMeta, ZOAuthError } from '@credit/contract';
import {
  CreditApiError,
  type CreditError,
  CreditOAuthError,
  CreditResponseValidationError,
  CreditUnexpectedResponseError,
} from './errors.ts';

type Schema = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: SchemaIssue[] } } };
type SchemaIssue = { path: PropertyKey[]; message: string };

const requestIdOf = (response: Response, body?: unknown): string | undefined => {
  const fromBody = (body as { meta?: { requestId?: unknown } } | undefined)?.meta?.requestId;
  return response.headers.get('x-request-id') ?? (typeof fromBody === 'string' ? fromBody : undefined);
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

/** Turns an error response into the typed error it stands for. */
export const errorFromResponse = async (response: Response, operation: Operation): Promise<CreditError> => {
  const body = await readJson(response);
  const value = body === 'unreadable' ? undefined : body.value;
  const requestId = requestIdOf(response, value);
  if (operation.auth.kind === 'client-credentials') {
    const oauth = ZOAuthError.safeParse(value);
    if (oauth.success) return new CreditOAuthError(oauth.data.error, oauth.data.error_description, response.status);
  }
  // The spec makes `meta` optional on error bodies: only `error` decides whether this is the API's answer.
  const parsed = ZErrorBody.shape.error.safeParse((value as { error?: unknown } | undefined)?.error);
  if (!parsed.success) {
    return new CreditUnexpectedResponseError(
      `${operation.operationId}: HTTP ${response.status} without the API's error body`,
      response.status,
      operation.operationId,
      requestId,
    );
  }
  const { code, message, details, retryAfter, unlocksAt } = parsed.data;
  return new CreditApiError({
    code,
    message,
    status: response.status,
    requestId,
    details,
    retryAfter,
    unlocksAt,
    operationId: operation.operationId,
  });
};

// Built once per operation: the contract's own schema of the whole success body, envelope included.
const successSchemas = new WeakMap<Operation, Schema | null>();
const successSchemaOf = (operation: Operation): Schema | null => {
  let schema = successSchemas.get(operation);
  if (schema === undefined) {
    const { data, list, raw, meta } = operation.success;
    schema = !data
      ? null
      : raw
        ? data
        : list
          ? listEnvelope(data)
          : meta
            ? envelope(data).extend({ meta: ZMeta.extend(meta.shape) })
            : envelope(data);
    successSchemas.set(operation, schema);
  }
  return schema;
};

/**
 * The success body as the server sent it. With `validate` it must match the contract's schema first (the
 * body is returned as received either way, so switching validation off never changes what callers get).
 */
export const readSuccess = async (response: Response, operation: Operation, validate: boolean): Promise<unknown> => {
  if (response.status === 204 || !operation.success.data) {
    await response.body?.cancel();
    return undefined;
  }
  const body = await readJson(response);
  if (body === 'unreadable') {
    throw new CreditUnexpectedResponseError(
      `${operation.operationId}: the success body is not JSON`,
      response.status,
      operation.operationId,
      requestIdOf(response),
    );
  }
  const schema = validate ? successSchemaOf(operation) : null;
  if (schema) {
    const result = schema.safeParse(body.value);
    if (!result.success) {
      const issues = result.error.issues.map(({ path, message }) => ({ path, message }));
      const where = issues
        .slice(0, 3)
        .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
        .join('; ');
      throw new CreditResponseValidationError(
        `${operation.operationId}: the response does not match the contract (${where})`,
        operation.operationId,
        issues,
        requestIdOf(response, body.value),
      );
    }
  }
  return body.value;
};

export const responseRequestId = requestIdOf;
