import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

describe('envelope and request ids', () => {
  it('wraps data with our meta.requestId and timestamp, echoing the caller’s X-Request-ID as its correlation id', async () => {
    const res = await app.request('GET', '/v1/users', { token, headers: { 'x-request-id': 'trace-abc.123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc.123');
    expect(res.body.meta).toEqual({ requestId: expect.stringMatching(/^req_[A-Za-z0-9]{20}$/), timestamp: expect.any(String) });
    // Logged beside ours, so either finds the line.
    const line = app.logs.map((l) => JSON.parse(l)).find((l) => l.req?.id === res.body.meta.requestId);
    expect(line?.req).toMatchObject({ correlationId: 'trace-abc.123' });
  });

  it('generates a req_ id when none (or an unsafe one) is sent', async () => {
    for (const headers of [{}, { 'x-request-id': 'bad id with spaces' }] as Record<string, string>[]) {
      const res = await app.request('GET', '/v1/users', { token, headers });
      expect(res.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9]{20}$/);
      expect(res.body.meta.requestId).toBe(res.headers.get('x-request-id'));
    }
  });
});

describe('errors', () => {
  it('answers 404 NOT_FOUND in the error envelope for an unknown route', async () => {
    const res = await app.request('GET', '/v1/nothing-here', { token });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('/v1/nothing-here') });
    expect(res.body.meta.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers 400 for malformed JSON, a wrong content type and an oversized body', async () => {
    const malformed = await app.request('POST', '/v1/users/enroll', {
      token,
      rawBody: '{"externalUserId": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: 'The body is not valid JSON.' });

    const wrongType = await app.request('POST', '/v1/users/enroll', {
      token,
      rawBody: JSON.stringify(enrollment()),
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.details).toEqual([{ field: 'body', message: 'Content-Type must be application/json' }]);

    const huge = await app.request('POST', '/v1/users/enroll', {
      token,
      body: { ...enrollment(), padding: 'x'.repeat(1_100_000) },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toMatch(/1 MB/);
  });

  it('names every unknown or invalid field', async () => {
    const res = await app.request('POST', '/v1/users/enroll', {
      token,
      body: {
        ...enrollment({ ssn: '12345', address: { street: 'x', city: 'y', state: 'ZZ', zipCode: '1', extra: 1 } }),
        nickname: 'J',
      },
    });
    expect(res.status).toBe(400);
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['address.extra', 'address.state', 'address.zipCode', 'nickname', 'ssn']);
  });

  it('rejects unknown query parameters', async () => {
    const res = await app.request('GET', '/v1/users?colour=blue', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'query.colour', message: 'is not a known field' }]);
  });

  it('turns an unexpected failure into 500 INTERNAL_ERROR with the requestId and no internals', async () => {
    const broken = await startTestApp();
    const brokenClient = await broken.createClient();
    const brokenToken = await broken.token(brokenClient);
    await broken.db.query('alter table users rename to users_gone');
    const res = await broken.request('GET', '/v1/users', { token: brokenToken });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect(res.body.error.message).toMatch(/Quote the requestId/);
    expect(JSON.stringify(res.body)).not.toMatch(/users_gone|relation|at .*\.ts|stack/i);
    await broken.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE when the database is gone', async () => {
    const orphan = await startTestApp({ keepDb: true });
    const orphanClient = await orphan.createClient();
    const orphanToken = await orphan.token(orphanClient);
    await orphan.db.close();
    const res = await orphan.request('GET', '/v1/users', { token: orphanToken });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    await orphan.close();
  });
});

describe('security headers and docs', () => {
  it('sets helmet’s headers on API responses', async () => {
    const res = await app.request('GET', '/v1/users', { token });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('serves the OpenAPI 3.1 document and a reference page', async () => {
    const doc = await app.request('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/oauth/token', '/v1/users/enroll', '/v1/users/{userId}']),
    );
    const page = await app.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(await fetch(`${app.url}/docs/init.js`).then((r) => r.text())).toContain('/openapi.json');
    const asset = await fetch(`${app.url}/docs/assets/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
  });
});
