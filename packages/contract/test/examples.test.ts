import { describe, expect, it } from 'vitest';
import { RECORDED_EXAMPLES } from '../src/examples.generated.ts';
import { ALL_OPERATIONS, buildOpenApiDocument } from '../src/index.ts';
import { successBody } from '../src/openapi.ts';

/**
 * The examples /docs shows were recorded from a sandbox run (`pnpm examples`). A contract change that makes one of
 * them wrong fails here; re-recording brings them back in line.
 */
describe('recorded examples', () => {
  it.each(ALL_OPERATIONS.map((op) => [op.operationId, op] as const))('%s has one that still fits its schemas', (_id, op) => {
    const example = RECORDED_EXAMPLES[op.operationId];
    expect(example, 'run `pnpm examples`').toBeDefined();
    if (!example) return;
    expect(example.response.status).toBe(op.success.status);
    const request = example.request ?? {};
    if (op.request.params) expect(op.request.params.safeParse(request.params).error?.issues).toBeUndefined();
    if (op.request.query && request.query) expect(op.request.query.safeParse(request.query).error?.issues).toBeUndefined();
    if (op.request.body) expect(op.request.body.safeParse(request.body).error?.issues).toBeUndefined();
    const body = successBody(op);
    if (body) expect(body.safeParse(example.response.body).error?.issues).toBeUndefined();
    else expect(example.response.body).toBeUndefined();
  });

  it('are in the OpenAPI document, on every request body and success answer that has content', () => {
    const document = buildOpenApiDocument('/') as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { example?: unknown }> };
            responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
          }
        >
      >;
    };
    let shown = 0;
    for (const op of ALL_OPERATIONS) {
      const operation = document.paths[op.path]?.[op.method];
      for (const media of Object.values(operation?.requestBody?.content ?? {})) {
        expect(media.example, `${op.operationId} request`).toBeDefined();
        shown += 1;
      }
      for (const media of Object.values(operation?.responses[String(op.success.status)]?.content ?? {})) {
        expect(media.example, `${op.operationId} answer`).toBeDefined();
        shown += 1;
      }
    }
    expect(shown).toBeGreaterThan(40);
  });
});
