import { buildOpenApiDocument, getUser, listUsers } from '@credit/contract';
import { describe, expect, it } from 'vitest';
import type { RawResponse } from './helpers/fuzz-http.ts';
import { judge } from './helpers/fuzz-oracle.ts';
import type { FuzzRequest } from './helpers/fuzz-requests.ts';
import type { FuzzWorld } from './helpers/fuzz-world.ts';
import { type CheckedDocument, createOpenApiChecker } from './helpers/openapi-check.ts';

// The fuzz is only worth something if its oracle rejects the answers issue 11 found; a green fuzz run
// proves nothing about a rule the oracle does not check.
const world = { checker: createOpenApiChecker(buildOpenApiDocument() as CheckedDocument) } as FuzzWorld;
const meta = { requestId: 'req_1', timestamp: '2026-01-01T00:00:00.000Z' };
const headers = (extra: Record<string, string> = {}) =>
  new Headers({
    'content-type': 'application/json',
    'x-request-id': 'req_1',
    'x-ratelimit-limit': '1',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': '1',
    ...extra,
  });
const request = (overrides: Partial<FuzzRequest> = {}): FuzzRequest => ({
  op: getUser,
  caller: 'admin',
  method: 'GET',
  target: '/v1/users/usr_doesNotExist01',
  headers: {},
  pathValues: { userId: 'usr_doesNotExist01' },
  bearerSent: true,
  ...overrides,
});
const answer = (status: number, body: unknown, extra?: Record<string, string>): RawResponse => ({
  status,
  headers: headers(extra),
  text: JSON.stringify(body),
  body,
});
const error = (code: string, details?: { field: string; message: string }[]) => ({
  error: { code, message: 'm', docUrl: `http://127.0.0.1:3000/docs/errors#${code}`, details },
  meta,
});

describe('the fuzz oracle', () => {
  it('accepts a documented 404 for an unknown id', () => {
    expect(judge(world, request(), answer(404, error('NOT_FOUND')))).toEqual([]);
  });

  it('flags an error without a docUrl to its code', () => {
    const { docUrl: _docUrl, ...withoutDocUrl } = error('NOT_FOUND').error;
    expect(judge(world, request(), answer(404, { error: withoutDocUrl, meta })).join()).toContain('[doc-url]');
    const elsewhere = {
      error: { ...error('NOT_FOUND').error, docUrl: 'http://127.0.0.1:3000/docs/errors#VALIDATION_ERROR' },
      meta,
    };
    expect(judge(world, request(), answer(404, elsewhere)).join()).toContain('[doc-url]');
  });

  it('flags a 500, an ETag, a 304 and an undocumented code', () => {
    expect(judge(world, request(), answer(500, error('INTERNAL_ERROR'))).join()).toContain('[no-5xx]');
    expect(judge(world, request(), answer(404, error('NOT_FOUND'), { etag: 'W/"x"' })).join()).toContain('[no-etag]');
    expect(judge(world, request(), { status: 304, headers: headers(), text: '', body: undefined }).join()).toContain('[no-etag]');
    expect(judge(world, request(), answer(409, error('IDEMPOTENCY_CONFLICT'))).join()).toContain('[openapi]');
    expect(judge(world, request(), answer(403, error('CREDIT_FROZEN'))).join()).toContain('[documented-code]');
  });

  it('flags a 401 without its Bearer challenge', () => {
    expect(judge(world, request(), answer(401, error('AUTHENTICATION_ERROR'))).join()).toContain('[www-authenticate]');
    const plain = answer(401, error('AUTHENTICATION_ERROR'), { 'www-authenticate': 'Bearer' });
    expect(judge(world, request(), plain).join()).toContain('error="invalid_token"');
    const full = answer(401, error('AUTHENTICATION_ERROR'), { 'www-authenticate': 'Bearer error="invalid_token"' });
    expect(judge(world, request(), full)).toEqual([]);
  });

  it('flags a 400 that blames a well-prefixed id, a VALIDATION_ERROR without details, and an accepted NUL', () => {
    const blamed = answer(
      400,
      error('VALIDATION_ERROR', [{ field: 'path.userId', message: 'must be an id starting with usr_' }]),
    );
    expect(judge(world, request(), blamed).join()).toContain('[id-404]');
    expect(judge(world, request(), answer(400, error('VALIDATION_ERROR'))).join()).toContain('[details]');
    const list = { data: [], pagination: { hasMore: false, nextCursor: null, total: 0 }, meta };
    const nul = request({
      op: listUsers,
      target: '/v1/users?externalUserId=a%00b',
      pathValues: {},
      refusedAt: 'query.externalUserId',
    });
    expect(judge(world, nul, answer(200, list)).join()).toContain('[refused]');
  });
});
