import { writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineOperation, type Operation } from '@credit/contract';
import selfsigned from 'selfsigned';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.ts';
import { ApiRequest, type HttpRequest } from '../src/http/api-request.ts';
import { serveOperation } from '../src/http/dispatch.ts';
import { OperationTable } from '../src/http/operation-table.ts';
import { bindRoute } from '../src/http/route.ts';
import { listen } from '../src/server.ts';
import { startTestApp, type TestApp, testConfig } from './helpers/harness.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('HTTPS', () => {
  it('serves TLS directly when TLS_CERT_FILE and TLS_KEY_FILE are set', async () => {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const dir = tmpdir();
    const cert = path.join(dir, `credit-cert-${process.pid}.pem`);
    const key = path.join(dir, `credit-key-${process.pid}.pem`);
    writeFileSync(cert, pems.cert);
    writeFileSync(key, pems.private);
    const app = await startTestApp();
    apps.push(app);
    const server = await listen(createApp(app.ctx), testConfig({ PORT: '0', TLS_CERT_FILE: cert, TLS_KEY_FILE: key }));
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get(`${server.url}/health`, { ca: pems.cert }, (res) => {
          let data = '';
          res.on('data', (c) => {
            data += c;
          });
          res.on('end', () => resolve(data));
        })
        .on('error', reject);
    });
    expect(JSON.parse(body)).toEqual({ status: 'ok', environment: 'sandbox' });
    await server.close();
  });
});

describe('deprecating a route', () => {
  it('adds Deprecation and Sunset headers to a route marked deprecated', async () => {
    const app = await startTestApp();
    apps.push(app);
    const legacy = defineOperation({
      operationId: 'legacyPing',
      method: 'get',
      path: '/v1/legacy-ping',
      tag: 'Test',
      summary: 'A deprecated route',
      auth: { kind: 'bearer', scope: 'read' },
      rateLimit: 'userOps',
      request: {},
      success: { status: 200, description: 'pong', data: z.object({ pong: z.boolean() }) },
      errors: [],
      deprecated: { since: '2026-01-01T00:00:00Z', sunset: '2027-01-01T00:00:00Z', link: 'https://docs.example/migrate' },
    }) satisfies Operation;
    const route = bindRoute(app.ctx, legacy, async () => ({ data: { pong: true } }));
    const table = new OperationTable([route]);
    // The request is counted in the client's bucket, so the client carries the limits a stored one has.
    const client = { id: 'cli_test', ipAllowlist: [], rateLimits: { auth: 100, batch: 50, userOps: 1000 } };
    const admission = {
      resolve: async (_ctx: unknown, req: HttpRequest) => {
        req.principal = { kind: 'access', client: client as never, scopes: ['read'] };
      },
    };
    const server: RequestListener = (incoming, res) => {
      const req = new ApiRequest(incoming, { path: '/v1/legacy-ping', url: incoming.url ?? '' }, () => false);
      req.requestId = 'req_test';
      const match = table.match('GET', req.path);
      if (match && 'route' in match) void serveOperation(app.ctx, req, res, match, admission);
    };
    const running = await listen(server, testConfig({ PORT: '0' }));
    const res = await fetch(`${running.url}/v1/legacy-ping`);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('@1767225600');
    expect(res.headers.get('sunset')).toBe('Fri, 01 Jan 2027 00:00:00 GMT');
    expect(res.headers.get('link')).toBe('<https://docs.example/migrate>; rel="deprecation"');
    await running.close();
  });
});
