import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ERROR_DETAILS } from '../src/core/zod-details.ts';
import { chainSpooledEntries } from '../src/modules/audit/chainer.ts';
import { changeClient } from '../src/modules/clients/service.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/**
 * What a partner or a consumer must not be able to do to others: each finding of the rights review, probed the way
 * it was found. Addresses come from X-Forwarded-For (TRUST_PROXY=loopback), so callers on one machine can stand for
 * callers on several.
 */
let app: TestApp;
let partner: TestClient;
let admin: string;

beforeAll(async () => {
  app = await startTestApp({ config: { TRUST_PROXY: 'loopback' } });
  partner = await app.createClient();
  admin = await app.token(partner);
});
afterAll(() => app.close());

const tokenRequest = (clientId: string, secret: string, from: string) =>
  app.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
    headers: { 'x-forwarded-for': from },
  });

const externalIdOf = async (userId: string) =>
  (await app.request('GET', `/v1/users/${userId}`, { token: admin })).body.data.externalUserId as string;

describe('a user token carries at most the scopes of what minted it', () => {
  it('reads nothing through a token minted by a client limited to write', async () => {
    const userId = await enrolActiveUser(app, admin);
    const external = await externalIdOf(userId);
    const writeOnly = await app.createClient({ scopes: ['write'] });
    // The same customer at a client that may not read: enrolled there too, then a user token minted for them.
    const writeToken = await app.token(writeOnly);
    const narrowed = await app.token(partner, 'write');
    for (const minter of [writeToken, narrowed]) {
      const own = minter === narrowed ? external : 'write-only-customer';
      const userToken = await app.userToken(minter, own);
      for (const [method, path] of [
        ['GET', `/v1/users/${userId}/credit-score`],
        ['GET', `/v1/users/${userId}/credit-score/history`],
        ['GET', `/v1/users/${userId}/offers`],
        ['POST', '/widget/session'],
      ] as const) {
        const res = await app.request(method, path, { token: userToken });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
        expect(res.body.error.message).toMatch(/lacks the "(read|offers)" scope/);
      }
    }
    // Minted by a token with read, the same customer reads as before.
    const full = await app.userToken(admin, external);
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token: full })).status).toBe(200);
  });
});

describe('failed client authentications', () => {
  it('throttle the address that fails, never the partner calling from elsewhere', async () => {
    const victim = await app.createClient();
    const attacker = '198.51.100.66';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 101; attempt++) {
      statuses.push((await tokenRequest(victim.id, `guess-${attempt}-0123456789abcdef`, attacker)).status);
    }
    const limit = app.ctx.config.RATE_LIMIT_AUTH_FAILURES_PER_MIN;
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(new Set(statuses.slice(limit))).toEqual(new Set([429]));
    // Even the right secret is refused from the attacking address until its window ends…
    expect((await tokenRequest(victim.id, victim.secret, attacker)).status).toBe(429);
    // …while the partner's servers keep getting tokens, and minting user tokens.
    const fromPartner = await tokenRequest(victim.id, victim.secret, '203.0.113.10');
    expect(fromPartner.status, JSON.stringify(fromPartner.body)).toBe(200);
    const minted = await app.request('POST', '/v1/auth/user-token', {
      token: fromPartner.body.access_token,
      headers: { 'x-forwarded-for': '203.0.113.10' },
      body: { userId: 'customer-1', email: 'c@example.test', firstName: 'Ann', lastName: 'Lee' },
    });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
  });

  it('throttle an address trying many client ids', async () => {
    const sprayer = '198.51.100.77';
    const limit = app.ctx.config.RATE_LIMIT_AUTH_FAILURES_PER_MIN * 3;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= limit; attempt++) {
      statuses.push((await tokenRequest(`cli_sbx_guess${attempt}`, 'guess-0123456789abcdef', sprayer)).status);
    }
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(statuses[limit]).toBe(429);
  });

  it('count a client id with "+" as the client it authenticates as (one Basic parser)', async () => {
    const plus = await app.createClient({ id: 'cli_sbx_plus+sign01' });
    await changeClient(app.db, plus.id, { rateLimits: { auth: 7 } });
    await app.invalidationsArrived();
    const basic = (id: string) => `Basic ${Buffer.from(`${id}:${encodeURIComponent(plus.secret)}`).toString('base64')}`;
    const request = (id: string) =>
      app.request('POST', '/oauth/token', {
        form: { grant_type: 'client_credentials' },
        headers: { authorization: basic(id), 'x-forwarded-for': '203.0.113.20' },
      });
    // Form-urlencoded as RFC 6749 §2.3.1 asks: the client, and counted in the client's own window.
    const encoded = await request(encodeURIComponent(plus.id));
    expect(encoded.status, JSON.stringify(encoded.body)).toBe(200);
    expect(encoded.headers.get('x-ratelimit-limit')).toBe('7');
    // A raw "+" is a space there: no such client, and counted by address like any unknown caller.
    const raw = await request(plus.id);
    expect(raw.status).toBe(401);
    expect(raw.headers.get('x-ratelimit-limit')).toBe(String(app.ctx.config.RATE_LIMIT_AUTH_PER_MIN));
  });
});

describe('stored idempotent answers', () => {
  it('never keep a minted user token in clear, and still replay it', async () => {
    const key = `mint-${Date.now()}`;
    const mint = () =>
      app.request('POST', '/v1/auth/user-token', {
        token: admin,
        headers: { 'idempotency-key': key },
        body: { userId: 'idem-customer', email: 'i@example.test', firstName: 'Ida', lastName: 'Mo' },
      });
    const first = await mint();
    expect(first.status).toBe(201);
    const replay = await mint();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.userToken).toBe(first.body.data.userToken);
    const { rows } = await app.db.query<{ body: string }>(
      'select response_body::text as body from idempotency_keys where key = $1',
      // A server's keys are stored apart from its customers' (http/route.ts).
      [`client:${key}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.body).not.toContain('ut_');
    expect(rows[0]?.body).not.toContain('idem-customer');
  });
});

describe('request ids', () => {
  it('echo a consumer’s X-Request-ID, but the audit trail records only ours', async () => {
    const userId = await enrolActiveUser(app, admin);
    const userToken = await app.userToken(admin, await externalIdOf(userId));
    const minted = await app.request('POST', '/v1/auth/user-token', {
      token: admin,
      body: { userId: 'someone-else', email: 's@example.test', firstName: 'Sam', lastName: 'Ng' },
    });
    const partnersRequestId = minted.body.meta.requestId as string;
    const read = await app.request('GET', `/v1/users/${userId}/credit-score`, {
      token: userToken,
      headers: { 'x-request-id': partnersRequestId },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-request-id')).toBe(partnersRequestId);
    expect(read.body.meta.requestId).not.toBe(partnersRequestId);
    await chainSpooledEntries({ db: app.db });
    const { rows } = await app.db.query<{ type: string; request_id: string }>(
      'select type, request_id from audit_events where request_id in ($1, $2)',
      [partnersRequestId, read.body.meta.requestId],
    );
    expect(rows.filter((r) => r.request_id === partnersRequestId).map((r) => r.type)).toEqual(['token.minted']);
    expect(rows.filter((r) => r.request_id === read.body.meta.requestId).map((r) => r.type)).toContain('credit_data.read');
  });
});

describe('error answers never dwarf the request', () => {
  // Short names, so 110,000 of them stay under the 1 MB limit once inflated.
  const fields = (count: number) => `{${Array.from({ length: count }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
  const send = (text: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/v1/users/enroll`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', ...headers },
      body: headers['content-encoding'] === 'gzip' ? gzipSync(text) : text,
    });

  it('lists at most 25 problems and how many more', async () => {
    const res = await send(fields(90), { 'content-encoding': 'gzip' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { details: { field: string; message: string }[] } };
    expect(body.error.details).toHaveLength(MAX_ERROR_DETAILS + 1);
    expect(body.error.details.at(-1)?.message).toMatch(/^and \d+ more problems/);
  });

  it('refuses an object of more fields than any operation takes before validating it, however it is compressed', async () => {
    for (const count of [20_000, 110_000]) {
      const res = await send(fields(count), { 'content-encoding': 'gzip' });
      const text = await res.text();
      expect(fields(count).length).toBeLessThan(1024 * 1024);
      expect(res.status).toBe(400);
      expect(text.length).toBeLessThan(2_000);
      expect(JSON.parse(text).error.details).toEqual([{ field: 'body', message: 'has more than 100 fields' }]);
    }
  });

  it('refuses a compressed body by its announced length, before inflating it', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const res = await fetch(`${app.url}/v1/users/enroll`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: big,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/larger than the 1 MB limit/);
  });
});
