import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_SCRIPT_FILE, WIDGET_DIST_DIR } from '../src/modules/widget/static-files.ts';
import { enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const PARTNER = 'https://www.maple-bank.example';
const OTHER_PARTNER = 'https://www.other-bank.example';

let app: TestApp;
let client: TestClient;
let accessToken: string;
let counter = 0;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient({ embedOrigins: [PARTNER, 'http://localhost:*'] });
  accessToken = await app.token(client);
  // Another client allows OTHER_PARTNER: enough for frame-ancestors, never for this client's sessions.
  await app.createClient({ embedOrigins: [OTHER_PARTNER] });
});
afterAll(() => app.close());

const newUserToken = async () => {
  counter += 1;
  const externalUserId = `widget-cust-${counter}`;
  return { externalUserId, userToken: await app.userToken(accessToken, externalUserId) };
};

const startSession = (userToken: string, parentOrigin: string | null = PARTNER) =>
  app.request('POST', '/widget/session', { token: userToken, body: { parentOrigin } });

/** The cookie pair a browser would send back, from a Set-Cookie header. */
const cookieOf = (setCookie: string | null) => (setCookie ?? '').split(';')[0] ?? '';

describe('POST /widget/session', () => {
  it('sets an HttpOnly, Secure, SameSite=None, Partitioned cookie and returns a CSRF token', async () => {
    const { userToken } = await newUserToken();
    const res = await startSession(userToken);
    expect(res.status).toBe(201);
    expect(res.body.data.userId).toBeNull();
    expect(res.body.data.csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(new RegExp(`^cw_session_${res.body.data.csrfToken.slice(0, 16)}=`));
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=None', 'Partitioned', 'Path=/', 'Expires=']) {
      expect(setCookie).toContain(attribute);
    }
    // The cookie carries the token sealed, never in the clear.
    expect(setCookie).not.toContain(userToken);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('lets the cookie plus the CSRF header stand in for the user token', async () => {
    const { userToken, externalUserId } = await newUserToken();
    const session = await startSession(userToken);
    const headers = { cookie: cookieOf(session.headers.get('set-cookie')), 'x-widget-csrf': session.body.data.csrfToken };

    const notEnrolled = await app.request('GET', '/v1/me', { headers });
    expect(notEnrolled.status).toBe(403);
    expect(notEnrolled.body.error.code).toBe('USER_NOT_ENROLLED');

    const enrolled = await app.request('POST', '/v1/users/enroll', {
      headers,
      body: {
        ssn: '1234',
        dateOfBirth: '1985-04-12',
        address: { street: '1 Elm St', city: 'Springfield', state: 'IL', zipCode: '62701' },
      },
    });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.data.externalUserId).toBe(externalUserId);

    const status = await app.request('GET', '/widget/session', { headers });
    expect(status.status).toBe(200);
    expect(status.body.data.userId).toBe(enrolled.body.data.userId);
  });

  it('refuses the cookie without the CSRF header, with a wrong one, or tampered with', async () => {
    const { userToken } = await newUserToken();
    const session = await startSession(userToken);
    const cookie = cookieOf(session.headers.get('set-cookie'));
    const csrf = session.body.data.csrfToken as string;

    const withoutHeader = await app.request('GET', '/widget/session', { headers: { cookie } });
    expect(withoutHeader.status).toBe(401);
    expect(withoutHeader.body.error.message).toContain('x-widget-csrf');

    const wrongHeader = await app.request('GET', '/widget/session', {
      headers: { cookie, 'x-widget-csrf': csrf.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
    });
    expect(wrongHeader.status).toBe(401);

    const tampered = await app.request('GET', '/widget/session', {
      // A character well inside the ciphertext (the last one may only hold padding bits).
      headers: {
        cookie: `${cookie.slice(0, -10)}${cookie.at(-10) === 'A' ? 'B' : 'A'}${cookie.slice(-9)}`,
        'x-widget-csrf': csrf,
      },
    });
    expect(tampered.status).toBe(401);
    expect(tampered.body.error.code).toBe('AUTHENTICATION_ERROR');
  });

  it('keeps two sessions on one site apart: each has its own cookie', async () => {
    const first = await startSession((await newUserToken()).userToken);
    const second = await startSession((await newUserToken()).userToken);
    // The browser sends every cookie of the site with every request.
    const cookie = `${cookieOf(first.headers.get('set-cookie'))}; ${cookieOf(second.headers.get('set-cookie'))}`;
    for (const session of [first, second]) {
      const status = await app.request('GET', '/widget/session', {
        headers: { cookie, 'x-widget-csrf': session.body.data.csrfToken },
      });
      expect(status.status).toBe(200);
      expect(status.body.data.expiresAt).toBe(session.body.data.expiresAt);
    }
  });

  it('binds the CSRF token to its own session', async () => {
    const first = await startSession((await newUserToken()).userToken);
    const second = await startSession((await newUserToken()).userToken);
    const crossed = await app.request('GET', '/widget/session', {
      headers: { cookie: cookieOf(first.headers.get('set-cookie')), 'x-widget-csrf': second.body.data.csrfToken },
    });
    expect(crossed.status).toBe(401);
  });

  it('refuses a parent origin the token’s own client does not list, even if another client does', async () => {
    const { userToken } = await newUserToken();
    const foreign = await startSession(userToken, OTHER_PARTNER);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect(foreign.body.error.message).toContain(OTHER_PARTNER);
    expect(foreign.body.error.details).toEqual([{ field: 'parentOrigin', message: expect.any(String) }]);
    expect(foreign.headers.get('set-cookie')).toBeNull();

    const wildcardPort = await startSession(userToken, 'http://localhost:4321');
    expect(wildcardPort.status).toBe(201);
  });

  it('accepts a top-level mobile webview (no parent) and rejects malformed origins', async () => {
    const { userToken } = await newUserToken();
    expect((await startSession(userToken, null)).status).toBe(201);
    const malformed = await startSession(userToken, 'https://bank.example/path');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].field).toBe('parentOrigin');
  });

  it('is for user tokens only, sent as a bearer token', async () => {
    const withAccessToken = await startSession(accessToken);
    expect(withAccessToken.status).toBe(403);
    const anonymous = await app.request('POST', '/widget/session', { body: { parentOrigin: PARTNER } });
    expect(anonymous.status).toBe(401);

    const { userToken } = await newUserToken();
    const session = await startSession(userToken);
    const headers = { cookie: cookieOf(session.headers.get('set-cookie')), 'x-widget-csrf': session.body.data.csrfToken };
    const fromCookie = await app.request('POST', '/widget/session', { headers, body: { parentOrigin: PARTNER } });
    expect(fromCookie.status).toBe(401);
  });

  it('ends when the user token expires', async () => {
    const { userToken } = await newUserToken();
    const session = await startSession(userToken);
    const headers = { cookie: cookieOf(session.headers.get('set-cookie')), 'x-widget-csrf': session.body.data.csrfToken };
    expect((await app.request('GET', '/widget/session', { headers })).status).toBe(200);

    const expiry = new Date(session.body.data.expiresAt).getTime();
    expect(expiry - app.clock.now().getTime()).toBe(3600_000);
    app.clock.advance(3600_000 + 1000);
    const expired = await app.request('GET', '/widget/session', { headers });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('AUTHENTICATION_ERROR');
    accessToken = await app.token(client);
  });

  it('keeps a cookie session inside its own user', async () => {
    const owner = await newUserToken();
    const otherUserId = await enrolUser(app, accessToken);
    const session = await startSession(owner.userToken);
    const headers = { cookie: cookieOf(session.headers.get('set-cookie')), 'x-widget-csrf': session.body.data.csrfToken };
    const foreign = await app.request('GET', `/v1/users/${otherUserId}`, { headers });
    expect(foreign.status).toBe(404);
    const list = await app.request('GET', '/v1/users', { headers });
    expect(list.status).toBe(403);
  });

  it('never writes the token, cookie or CSRF token to the log', async () => {
    const { userToken } = await newUserToken();
    const session = await startSession(userToken);
    const cookie = cookieOf(session.headers.get('set-cookie'));
    await app.request('GET', '/widget/session', { headers: { cookie, 'x-widget-csrf': session.body.data.csrfToken } });
    const logs = app.logs.join('\n');
    expect(logs).not.toContain(userToken);
    expect(logs).not.toContain(cookie.split('=')[1]);
    expect(logs).not.toContain(session.body.data.csrfToken);
  });
});

describe('GET /widget and /embed.js', () => {
  const built = existsSync(`${WIDGET_DIST_DIR}/index.html`) && existsSync(EMBED_SCRIPT_FILE);

  it('the widget and loader are built (pnpm build runs before the suite)', () => {
    expect(built, 'run `pnpm build` first').toBe(true);
  });

  const frameAncestors = async (query: string) => {
    const res = await fetch(`${app.url}/widget${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBeNull();
    return /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
  };

  it.runIf(built)('lets only an origin some client lists frame the widget', async () => {
    expect(await frameAncestors(`?parent=${encodeURIComponent(PARTNER)}`)).toBe(PARTNER);
    expect(await frameAncestors(`?parent=${encodeURIComponent(OTHER_PARTNER)}`)).toBe(OTHER_PARTNER);
    expect(await frameAncestors(`?parent=${encodeURIComponent('https://evil.example')}`)).toBe("'none'");
    expect(await frameAncestors(`?parent=${encodeURIComponent(`${PARTNER}/path`)}`)).toBe("'none'");
    expect(await frameAncestors('')).toBe("'none'");
  });

  it.runIf(built)('serves the loader to any page, cached briefly, and hashed assets for a year', async () => {
    const loader = await fetch(`${app.url}/embed.js`);
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toContain('javascript');
    expect(loader.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(loader.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await loader.text()).toContain('CreditWidget');

    const html = await (await fetch(`${app.url}/widget`)).text();
    const asset = /src="(\/widget\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${app.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
  });
});
