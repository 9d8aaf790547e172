import { ALL_OPERATIONS, envelope, listEnvelope, type Operation, ZMeta } from '@credit/contract';
import { CreditResponseValidationError } from './errors.ts';
import type { ResponseValidator } from './response.ts';

type Schema = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: SchemaIssue[] } } };
type SchemaIssue = { path: PropertyKey[]; message: string };

const byId = new Map<string, Operation>(ALL_OPERATIONS.map((operation) => [operation.operationId, operation]));

// Built once per operation: the contract's own schema of the whole success body, envelope included.
const successSchemas = new Map<string, Schema | null>();
const successSchemaOf = (operationId: string): Schema | null => {
  let schema = successSchemas.get(operationId);
  if (schema === undefined) {
    const operation = byId.get(operationId);
    const { data, list, raw, meta } = operation?.success ?? {};
    schema = !data
      ? null
      : raw
        ? data
        : list
          ? listEnvelope(data)
          : meta
            ? envelope(data).extend({ meta: ZMeta.extend(meta.shape) })
            : envelope(data);
    successSchemas.set(operationId, schema);
  }
  return schema;
};

/** Checks a success body with the contract's zod schemas (the server entry only: the browser entry ships no zod). */
export const validateWithContract: ResponseValidator = (operationId, body, requestId) => {
  const result = successSchemaOf(operationId)?.safeParse(body);
  if (!result || result.success) return;
  const issues = result.error.issues.map(({ path, message }) => ({ path, message }));
  const where = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
  throw new CreditResponseValidationError(
    `${operationId}: the response does not match the contract (${where})`,
    operationId,
    issues,
    requestId,
  );
};
