import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditClient, CreditOAuthError } from '../src/index.ts';

/**
 * Issue 50: the token endpoint's refusal keeps its `error_uri` (RFC 6749 §5.2), the page that says what to do, as
 * `errorUri` and at the end of the message, which is what a log line shows. A real HTTP server answers as the API does.
 */
const DOC = 'https://api.example.test/docs/errors#invalid_client';
let server: Server;
let baseUrl: string;
let withUri = true;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Basic realm="credit"' });
    const body = { error: 'invalid_client', error_description: 'Client authentication failed: unknown client or wrong secret.' };
    res.end(JSON.stringify(withUri ? { ...body, error_uri: DOC } : body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const refusal = async () => {
  const credit = new CreditClient({ baseUrl, clientId: 'cli_sbx_x', clientSecret: 'sk_wrong' });
  const error = await credit.call('listUsers').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CreditOAuthError);
  return error as CreditOAuthError;
};

describe('CreditOAuthError', () => {
  it('carries error_uri as errorUri and names it in its message', async () => {
    withUri = true;
    const error = await refusal();
    expect(error).toMatchObject({ code: 'invalid_client', status: 401, errorUri: DOC });
    expect(error.message).toBe(`Client authentication failed: unknown client or wrong secret. (see ${DOC})`);
  });

  it('without error_uri, the description alone and no errorUri', async () => {
    withUri = false;
    const error = await refusal();
    expect(error.errorUri).toBeUndefined();
    expect(error.message).toBe('Client authentication failed: unknown client or wrong secret.');
  });
});
