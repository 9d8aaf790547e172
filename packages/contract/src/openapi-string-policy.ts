import { SAFE_FREE_TEXT_PATTERN, SAFE_LINE_PATTERN } from './strings.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const isString = (schema: Json) =>
  schema.type === 'string' || (Array.isArray(schema.type) && (schema.type as unknown[]).includes('string'));

/**
 * States the contract's string policy (see `strings.ts`) in the document: every string a request can carry,
 * in a path or query parameter or a body, gets the policy as its `pattern` unless it already has a pattern
 * (ids, phone numbers and sort orders have their own, which admit no control characters either) or is an
 * enum or constant. Shared components are annotated where they are defined.
 */
export const applyStringPolicyPatterns = (document: { paths?: unknown; components?: unknown }) => {
  const schemas = (
    isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {}
  ) as Json;
  const seen = new Set<unknown>();
  const visit = (schema: unknown): void => {
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref) : null;
    if (ref) visit(schemas[ref[1] as string]);
    if (isString(schema) && schema.pattern === undefined && schema.enum === undefined && schema.const === undefined) {
      schema.pattern = schema['x-free-text'] ? SAFE_FREE_TEXT_PATTERN : SAFE_LINE_PATTERN;
    }
    for (const key of ['properties', 'patternProperties']) {
      if (isObject(schema[key])) for (const child of Object.values(schema[key] as Json)) visit(child);
    }
    for (const key of ['items', 'additionalProperties', 'not']) visit(schema[key]);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
      if (Array.isArray(schema[key])) for (const child of schema[key] as unknown[]) visit(child);
    }
  };
  for (const item of Object.values((document.paths ?? {}) as Json)) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.in === 'path' || parameter.in === 'query') visit(parameter.schema);
      }
      const content = isObject(operation.requestBody) ? operation.requestBody.content : undefined;
      if (isObject(content)) for (const media of Object.values(content)) if (isObject(media)) visit(media.schema);
    }
  }
};
