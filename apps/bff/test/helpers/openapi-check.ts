import { buildOpenApiDocument, ERROR_CODES, type OpenApiEnvironment } from '@credit/contract';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type ResponseObject = { description?: string; content?: Record<string, { schema: unknown }> };
type OperationObject = { operationId?: string; responses: Record<string, ResponseObject> };
/** The parts of an OpenAPI 3.1 document the check reads: the served `/openapi.json` or the one built in-process. */
export interface CheckedDocument {
  paths?: Record<string, unknown>;
  components?: unknown;
}

/** Paths outside the API reference (the reference itself, health) are checked for headers only. */
const UNDOCUMENTED = /^\/(openapi\.json|docs(\/.*)?|health|widget\/?|console(?!\/api\/v1\/)(\/.*)?)$/;
/** The console's calls are the operations themselves under a prefix: checked as the operation they name. */
const CONSOLE_API = /^\/console\/api(?=\/v1\/)/;
/** Static files, served before authentication and rate limiting: nothing to check. */
const STATIC = /^\/(embed\.js|widget\/assets\/.*|console\/assets\/.*)$/;
const ERROR_CODE_NAMES = Object.keys(ERROR_CODES);

export interface OpenApiChecker {
  /**
   * Every response must be one the document promises: a documented status for that operation, a body
   * matching its schema, and the headers every response carries. `template` pins the operation
   * (`/v1/users/{userId}`) when the caller knows it; otherwise it is found from the path.
   * Throws with the mismatch.
   */
  assertMatches(method: string, path: string, status: number, headers: Headers, body: unknown, template?: string): void;
  /** The error codes the document names for one status of one operation (from the response description). */
  documentedErrorCodes(method: string, template: string, status: number): string[];
}

export const createOpenApiChecker = (document: CheckedDocument): OpenApiChecker => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const operations = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    Object.entries(item as Record<string, OperationObject>).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      operation,
    })),
  );
  // As the server matches: the template with the most literal segments first (`/v1/offers/results` before `{offerId}`).
  const literals = (template: string) => template.split('/').filter((s) => s && !s.startsWith('{')).length;
  operations.sort((a, b) => literals(b.template) - literals(a.template));
  const compiled = new Map<string, ValidateFunction>();
  const compile = (key: string, schema: unknown): ValidateFunction => {
    let validate = compiled.get(key);
    if (!validate) {
      // The components travel with each schema so its "#/components/…" references resolve.
      validate = ajv.compile({ components: document.components, allOf: [schema] });
      compiled.set(key, validate);
    }
    return validate;
  };
  const find = (method: string, path: string, template?: string) =>
    template
      ? operations.find((op) => op.method === method && op.template === template)
      : operations.find((op) => op.method === method && op.pattern.test(path));

  return {
    assertMatches(method, requested, status, headers, body, template) {
      const where = `${method} ${requested} → ${status}`;
      const path = requested.replace(CONSOLE_API, '');
      if (STATIC.test(path)) return;
      for (const header of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        if (!headers.get(header)) throw new Error(`${where}: missing ${header} header`);
      }
      if (!template && UNDOCUMENTED.test(path)) return;
      const match = find(method, path, template);
      if (!match) {
        if (template) throw new Error(`${where}: the document has no operation ${method} ${template}`);
        // 405: a path of the document, by a method it does not declare (Allow names those it does).
        if (status !== 404 && status !== 405 && status !== 429) {
          throw new Error(`${where}: no documented operation, yet status is not 404 or 405`);
        }
        const validate = compile('error', { $ref: '#/components/schemas/Error' });
        if (!validate(body)) throw new Error(`${where}: error body off-schema: ${ajv.errorsText(validate.errors)}`);
        return;
      }
      const response = match.operation.responses[String(status)];
      if (!response) throw new Error(`${where}: status ${status} is not documented for ${match.method} ${match.template}`);
      const schema = response.content?.['application/json']?.schema;
      if (!schema) {
        if (body !== undefined && body !== '') throw new Error(`${where}: documented without a body, but one came back`);
        return;
      }
      const validate = compile(`${match.method} ${match.template} ${status}`, schema);
      if (!validate(body)) {
        throw new Error(
          `${where}: body does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`,
        );
      }
    },
    documentedErrorCodes(method, template, status) {
      const description = find(method.toUpperCase(), template, template)?.operation.responses[String(status)]?.description ?? '';
      return ERROR_CODE_NAMES.filter((code) => description.includes(`\`${code}\``));
    },
  };
};

/** The document each environment serves (production's without the sandbox helpers), built once when first needed. */
const inProcess = new Map<OpenApiEnvironment, OpenApiChecker>();
const checkerFor = (environment: OpenApiEnvironment): OpenApiChecker => {
  let checker = inProcess.get(environment);
  if (!checker) {
    checker = createOpenApiChecker(buildOpenApiDocument('/', { environment }) as CheckedDocument);
    inProcess.set(environment, checker);
  }
  return checker;
};

/**
 * Every response a test receives must be one the OpenAPI document of the app's environment promises: a documented
 * status for that operation, a body matching its schema, and the headers every response carries.
 * Throws with the mismatch so the test that received it fails.
 */
export const assertMatchesOpenApi = (
  method: string,
  path: string,
  status: number,
  headers: Headers,
  body: unknown,
  environment: OpenApiEnvironment = 'sandbox',
) => checkerFor(environment).assertMatches(method, path, status, headers, body);

/** A fetch that checks every response against the document (for third-party clients in tests). */
export const checkedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const text = await response.clone().text();
  const body = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || undefined;
  assertMatchesOpenApi((init?.method ?? 'GET').toUpperCase(), url.pathname, response.status, response.headers, body);
  return response;
};
