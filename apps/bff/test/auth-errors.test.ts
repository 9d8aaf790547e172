import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredTokens } from '../src/modules/auth/repo.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/**
 * Issue 23, "errors that say what to do": a refused bearer token says whether it expired, was revoked or is unknown,
 * and what to do about it for its kind (access token: POST /oauth/token; user token: mint a new one).
 */
let app: TestApp;
let client: TestClient;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
});
afterAll(() => app.close());

const refusal = async (path: string, token: string) => {
  const res = await app.request('GET', path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
  expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  return res.body.error.message as string;
};

const ACCESS_REMEDY = /request a new access token with POST \/oauth\/token/;
const USER_REMEDY = /mint a new user token for this customer from your server with POST \/v1\/auth\/user-token/;

const housekeeping = () => deleteExpiredTokens(app.db, app.clock.now());

describe('a refused bearer token', () => {
  it('an expired access token says it expired, when, and to call POST /oauth/token', async () => {
    const token = await app.token(client);
    const expiresAt = new Date(app.clock.now().getTime() + HOUR).toISOString();
    app.clock.advance(HOUR);
    const message = await refusal('/v1/users', token);
    expect(message).toContain(`The access token expired at ${expiresAt}`);
    expect(message).toMatch(ACCESS_REMEDY);
  });

  it('an expired user token says to mint a new user token, not to call /oauth/token', async () => {
    const userToken = await app.userToken(await app.token(client), 'cust-expiring');
    app.clock.advance(HOUR + 1000);
    const message = await refusal('/v1/me', userToken);
    expect(message).toMatch(/^The user token expired at /);
    expect(message).toMatch(USER_REMEDY);
    expect(message).not.toContain('/oauth/token');
  });

  it('still says "expired" days later (a token kept over a weekend), with the customer’s details already erased', async () => {
    const userToken = await app.userToken(await app.token(client), 'cust-weekend', { phone: '+1 555 010 0199' });
    const accessToken = await app.token(client);
    app.clock.advance(3 * DAY);
    await housekeeping();
    expect(await refusal('/v1/me', userToken)).toMatch(/^The user token expired at .*POST \/v1\/auth\/user-token/);
    expect(await refusal('/v1/users', accessToken)).toMatch(/^The access token expired at .*POST \/oauth\/token/);
    const { rows } = await app.db.query<{ n: number }>(
      "select count(*)::int as n from access_tokens where kind = 'user' and expires_at <= $1 and (claims is not null or external_user_id is not null)",
      [app.clock.now()],
    );
    expect(rows[0]?.n).toBe(0);

    // Past a week it is forgotten, and answered like any token this environment never issued.
    app.clock.advance(5 * DAY);
    await housekeeping();
    expect(await refusal('/v1/me', userToken)).toMatch(/^The bearer token is not valid: .*POST \/v1\/auth\/user-token/);
  });

  it('an unknown well-formed token is "not valid", with the remedy for its kind and nothing about anyone else', async () => {
    const random = () =>
      randomBytes(30)
        .toString('base64')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 40)
        .padEnd(40, 'x');
    const access = await refusal('/v1/users', `at_sbx_${random()}`);
    expect(access).toMatch(/^The bearer token is not valid: this environment did not issue it/);
    expect(access).toMatch(ACCESS_REMEDY);
    const user = await refusal('/v1/me', `ut_sbx_${random()}`);
    expect(user).toMatch(/^The bearer token is not valid: /);
    expect(user).toMatch(USER_REMEDY);
    for (const message of [access, user]) expect(message).not.toMatch(/cli_|usr_|@/);
  });

  it('a live token in the sandbox says which environment it belongs to', async () => {
    expect(await refusal('/v1/users', `at_live_${'A'.repeat(40)}`)).toMatch(/production token; this is the sandbox/);
  });
});

describe('issue 50: a token sent where it does not belong says what to send instead', () => {
  it('a client secret sent as the bearer token: "looks like a client secret", exchange it at POST /oauth/token', async () => {
    // The client's real secret, and one of the configured `sk_test_…` kind: the shape is enough, and neither is echoed.
    for (const secret of [client.secret, 'sk_test_not_the_secret_0123456789']) {
      const message = await refusal('/v1/users', secret);
      expect(message).toMatch(/^This looks like a client secret, not a token: exchange it at POST \/oauth\/token/);
      expect(message).toMatch(/for an access token and send that/);
      expect(message).not.toContain(secret);
      expect(message).not.toContain('malformed');
    }
  });

  it('a token of no known shape is "malformed", naming both kinds of token and where each comes from', async () => {
    for (const token of ['hello', `at_sbx_${'A'.repeat(5)}`, 'sk_']) {
      const message = await refusal('/v1/users', token);
      expect(message).toMatch(/^The bearer token is malformed: /);
      expect(message).toMatch(/access token \(at_…\) from POST \/oauth\/token/);
      expect(message).toMatch(/user token \(ut_…\) from POST \/v1\/auth\/user-token/);
    }
  });

  it('a user token on a partner route: 403 naming the client token from POST /oauth/token and what user tokens call', async () => {
    const userToken = await app.userToken(await app.token(client), 'cust-partner-route');
    const res = await app.request('GET', '/v1/users', { token: userToken });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    const message = res.body.error.message as string;
    expect(message).toMatch(/^A user token cannot call this route: it needs your bank’s client token/);
    expect(message).toContain('POST /oauth/token (grant_type=client_credentials)');
    expect(message).toContain(
      'User tokens only call GET /v1/me, POST /v1/users/enroll and the /v1/users/{userId}/… routes of their own user.',
    );
  });
});

describe('/docs/errors for AUTHENTICATION_ERROR', () => {
  it('gives both remedies: POST /oauth/token for an access token, a new user token for an expired user token', async () => {
    const html = (await app.request('GET', '/docs/errors')).body as string;
    const start = html.indexOf('<section id="AUTHENTICATION_ERROR">');
    expect(start).toBeGreaterThan(-1);
    const section = html.slice(start, html.indexOf('</section>', start));
    const fix = /<strong>What to do:<\/strong>(.*)<\/p>/.exec(section)?.[1] ?? '';
    expect(fix).toContain('<code>POST /oauth/token</code>');
    expect(fix).toContain('<code>POST /v1/auth/user-token</code>');
    expect(fix).toMatch(/user token \(<code>ut_…<\/code>\) expired: your server mints a new one/);
  });
});
