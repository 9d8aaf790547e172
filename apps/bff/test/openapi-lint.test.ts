import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/harness.ts';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const script = path.join(repo, 'scripts/lint-openapi.mjs');
const folder = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Json = Record<string, unknown>;
let written = 0;
/** scripts/lint-openapi.mjs (part of pnpm lint) over `document`, written to a file as the served one would be. */
const lint = async (document: unknown) => {
  written += 1;
  const file = path.join(folder, `document-${written}.json`);
  writeFileSync(file, JSON.stringify(document));
  return run(process.execPath, [script, file]).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
  );
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  description: 'Makes the request safe to retry.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001F]*$' },
};
/** A small document the lint accepts: one idempotent operation, one component with examples. */
const fragment = (change: (document: Json & { paths: Json; components: { schemas: Json } }) => void = () => {}) => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'fragment', version: '1' },
    paths: {
      '/v1/things': {
        post: {
          description: 'Creates a thing. Honours `Idempotency-Key`.',
          parameters: [structuredClone(IDEMPOTENCY_KEY)],
          requestBody: {
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Thing' }, example: { thingId: 'thg_1' } },
            },
          },
          responses: { '201': { description: 'Created.' } },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: {
            thingId: { type: 'string', pattern: '^thg_[^\\u0000-\\u001F]*$', example: 'thg_8fQ2' },
            // A property named `example` is a schema, not an example of its parent.
            example: { type: 'integer' },
          },
        },
      },
    },
  };
  change(document);
  return document;
};

describe('the OpenAPI lint (scripts/lint-openapi.mjs, part of pnpm lint)', () => {
  it('holds on the document the server serves at /openapi.json', async () => {
    const app = await startTestApp();
    try {
      const served = await (await fetch(`${app.url}/openapi.json`)).json();
      const result = await lint(served);
      expect(result.output).toMatch(/OpenAPI lint: .* hold/);
      expect(result.code).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('accepts the fragment the failing cases start from', async () => {
    expect(await lint(fragment())).toMatchObject({ code: 0 });
  });

  it('fails on a pattern written with surrogate escapes, in a schema or as a patternProperties key', async () => {
    const result = await lint(
      fragment((document) => {
        const thing = document.components.schemas.Thing as Json & { properties: { thingId: Json } };
        thing.properties.thingId.pattern = '^(?:[^\\u0000-\\u001F\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$';
        thing.patternProperties = { '^[\\u{D800}-\\u{DFFF}]$': { type: 'string' } };
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('#/components/schemas/Thing/properties/thingId/pattern');
    expect(result.output).toContain('#/components/schemas/Thing/patternProperties: key');
    expect(result.output.match(/names a surrogate code point/g)).toHaveLength(2);
  });

  it('fails on a pattern that compiles with the u flag but not as a Unicode-sets (v) expression', async () => {
    const result = await lint(
      fragment((document) => {
        const thing = document.components.schemas.Thing as { properties: Record<string, Json> };
        thing.properties.phone = { type: 'string', pattern: '^\\+?[0-9][0-9 ().-]{6,19}$' };
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('#/components/schemas/Thing/properties/phone/pattern');
    expect(result.output).toContain("does not compile as a Unicode-sets expression (new RegExp(p, 'v'))");
  });

  it('fails on a format JSON Schema does not define', async () => {
    const result = await lint(
      fragment((document) => {
        const thing = document.components.schemas.Thing as { properties: Record<string, Json> };
        thing.properties.ipAddress = {
          anyOf: [
            { type: 'string', format: 'ip' },
            { type: 'string', format: 'ipv6' },
          ],
        };
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      '#/components/schemas/Thing/properties/ipAddress/anyOf/0/format: format "ip" is not one JSON Schema 2020-12 defines',
    );
    expect(result.output).not.toContain('"ipv6"');
  });

  it('fails on an idempotent operation without the header, or with a header that states no rules', async () => {
    const withoutHeader = await lint(
      fragment((document) => {
        (document.paths['/v1/things'] as { post: Json }).post.parameters = [];
      }),
    );
    expect(withoutHeader.code).toBe(1);
    expect(withoutHeader.output).toContain('POST /v1/things: says it honours Idempotency-Key but documents no such header');

    const bare = await lint(
      fragment((document) => {
        const post = (document.paths['/v1/things'] as { post: Json }).post;
        post.parameters = [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 255 } }];
      }),
    );
    expect(bare.code).toBe(1);
    expect(bare.output).toContain(
      'POST /v1/things: the Idempotency-Key header lacks minLength: 1, a pattern refusing control characters (U+0000–U+001F), a description',
    );
  });

  it('fails on an example that does not fit its schema: a property’s, a parameter’s and a request body’s', async () => {
    const result = await lint(
      fragment((document) => {
        const thing = document.components.schemas.Thing as { properties: Record<string, Json> };
        (thing.properties.thingId as Json).example = 'usr_8fQ2';
        const post = (document.paths['/v1/things'] as { post: Json & { parameters: Json[] } }).post;
        (post.parameters[0] as Json).example = 'x'.repeat(256);
        (post.requestBody as { content: { 'application/json': Json } }).content['application/json'].example = { thingId: 7 };
      }),
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('#/components/schemas/Thing/properties/thingId/example: the example does not fit its schema');
    expect(result.output).toContain('#/paths/~1v1~1things/post/parameters/0/example: the example does not fit its schema');
    expect(result.output).toContain(
      '#/paths/~1v1~1things/post/requestBody/content/application~1json/example: the example does not fit its schema',
    );
  });
});
