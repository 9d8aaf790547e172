import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';
import { assertMatchesOpenApi } from './helpers/openapi-check.ts';

const headers = new Headers({
  'x-request-id': 'req_1',
  'x-ratelimit-limit': '1',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': '1',
});
const meta = { requestId: 'req_1', timestamp: '2026-01-01T00:00:00.000Z' };

// The suite's response check is only worth something if it rejects what the document does not promise.
describe('the OpenAPI response check used by every test', () => {
  it('accepts a documented response', () => {
    const body = { data: { userId: 'usr_abcdefghij', deletedAt: meta.timestamp, message: 'gone' }, meta };
    expect(() => assertMatchesOpenApi('DELETE', '/v1/users/usr_abcdefghij', 200, headers, body)).not.toThrow();
  });
  it('rejects a body off the schema, an undocumented status and missing headers', () => {
    expect(() => assertMatchesOpenApi('DELETE', '/v1/users/usr_x', 200, headers, { data: { userId: 1 }, meta })).toThrow(
      /does not match/,
    );
    expect(() => assertMatchesOpenApi('GET', '/v1/users', 418, headers, {})).toThrow(/not documented/);
    expect(() => assertMatchesOpenApi('GET', '/v1/users', 200, new Headers(), {})).toThrow(/missing x-request-id/);
  });
});

// The document is a promise about the server: the Idempotency-Key rules it states must be the ones applied.
describe('the documented Idempotency-Key header', () => {
  let app: TestApp;
  let token: string;
  let documented: ValidateFunction;
  beforeAll(async () => {
    app = await startTestApp();
    token = await app.token(await app.createClient());
    const served = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters: { name: string; in: string; schema: unknown }[] }>>;
    };
    const header = served.paths['/v1/users/enroll']?.post?.parameters.find((p) => p.name === 'Idempotency-Key');
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    documented = ajv.compile(header?.schema ?? {});
  });
  afterAll(() => app.close());

  it.each([
    ['empty', ''],
    ['one character', 'k'],
    ['255 characters', 'k'.repeat(255)],
    ['256 characters', 'k'.repeat(256)],
    ['a tab inside', 'retry\tkey'],
    ['a Latin-1 letter', 'retry-é'],
  ])('%s: accepted exactly when the document says it is valid', async (_, key) => {
    const response = await app.request('POST', '/v1/users/enroll', {
      token,
      body: enrollment(),
      headers: { 'idempotency-key': key },
    });
    const refusedKey = response.status === 400 && response.body.error.details?.[0]?.field === 'Idempotency-Key';
    expect(refusedKey ? 'refused' : response.status).toBe(documented(key) ? 201 : 'refused');
  });
});
