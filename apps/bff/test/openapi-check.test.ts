import { describe, expect, it } from 'vitest';
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
