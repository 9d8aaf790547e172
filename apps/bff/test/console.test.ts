import { existsSync } from 'node:fs';
import { CONSOLE_CSRF_HEADER } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateClientSecret } from '../src/modules/clients/service.ts';
import { CONSOLE_INDEX_FILE } from '../src/modules/console/pages.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/**
 * The bank's console: links minted through the API, exchanged once for a strict cookie, and the console's calls,
 * which are the partner operations under /console/api, admitted by the session's client and the staff member's role.
 */

const BANK_ORIGIN = 'https://admin.bank-a.example';
const ANA = { id: 'emp-4821', email: 'ana.ruiz@bank-a.example' };

interface SignedIn {
  cookie: string;
  csrf: string;
}

let app: TestApp;
let bankA: TestClient;
let bankB: TestClient;
let adminA: string;
let adminB: string;
let userA: string;
let userB: string;
let webhookA: string;
let webhookB: string;

const createWebhook = async (token: string) => {
  const res = await app.request('POST', '/v1/webhooks', {
    token,
    body: { url: 'https://127.0.0.1:9/hooks', events: ['user.enrolled'], secret: 'whsec_console_0123456789abcdef' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.webhookId as string;
};

const mintLink = async (token: string, role: 'viewer' | 'editor', staff = ANA): Promise<ApiResponse> =>
  app.request('POST', '/v1/console/links', { token, body: { staff, role } });

const linkToken = (url: string) => new URL(url).searchParams.get('token') as string;

/** Opens a link as a browser does its first request: no redirect followed, so the 303 and its cookie are seen. */
const openLink = (url: string) => fetch(url, { redirect: 'manual' });

const cookieOf = (res: Response): string => {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0] as string;
};

const signIn = async (token: string, role: 'viewer' | 'editor', staff = ANA): Promise<SignedIn> => {
  const link = await mintLink(token, role, staff);
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  const opened = await openLink(link.body.data.url);
  expect(opened.status).toBe(303);
  const cookie = cookieOf(opened);
  const session = await app.request('GET', '/console/session', { headers: { cookie } });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  return { cookie, csrf: session.body.data.csrfToken as string };
};

/** A console call: the operation's path under /console/api, with the session cookie (and the CSRF header on a change). */
const consoleCall = (session: SignedIn, method: string, path: string, body?: unknown, csrf = true) =>
  app.request(method, `/console/api${path}`, {
    headers: { cookie: session.cookie, ...(csrf && method !== 'GET' ? { [CONSOLE_CSRF_HEADER]: session.csrf } : {}) },
    ...(body !== undefined ? { body } : {}),
  });

type AuditEntry = { type: string; actor: { kind: string; id: string }; subject: Record<string, string> };

/** Every entry of a client's trail, page after page. */
const auditTrail = async (token: string): Promise<AuditEntry[]> => {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await app.request(
      'GET',
      `/v1/audit-events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    entries.push(...res.body.data);
    cursor = res.body.pagination.nextCursor;
  } while (cursor);
  return entries;
};

let enrolledOn: string;

beforeAll(async () => {
  app = await startTestApp();
  enrolledOn = app.clock.now().toISOString().slice(0, 10);
  bankA = await app.createClient({ name: 'Bank A', embedOrigins: [BANK_ORIGIN] });
  bankB = await app.createClient({ name: 'Bank B' });
  adminA = await app.token(bankA, 'admin');
  adminB = await app.token(bankB, 'admin');
  userA = await enrolActiveUser(app, adminA, { externalUserId: 'a-cust-1', email: 'jane.a@example.test' });
  userB = await enrolActiveUser(app, adminB, { externalUserId: 'b-cust-1', email: 'john.b@example.test' });
  webhookA = await createWebhook(adminA);
  webhookB = await createWebhook(adminB);
});
afterAll(() => app.close());

describe('POST /v1/console/links', () => {
  it('answers a one-time URL on this API, valid ten minutes, to an admin token only', async () => {
    const res = await mintLink(await app.currentToken(bankA), 'viewer');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const url = new URL(res.body.data.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${app.url}/console/auth`);
    expect(linkToken(res.body.data.url)).toMatch(/^cst_sbx_[A-Za-z0-9]{40}$/);
    expect(new Date(res.body.data.expiresAt).getTime()).toBe(app.clock.now().getTime() + 10 * 60_000);

    const scoped = await app.token(bankA, 'read write offers webhooks');
    const refused = await mintLink(scoped, 'viewer');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTHORIZATION_ERROR');
  });

  it('names every broken field: the staff id, the e-mail, the role', async () => {
    const res = await app.request('POST', '/v1/console/links', {
      token: await app.currentToken(bankA),
      body: { staff: { id: ' ', email: 'not-an-email' }, role: 'owner' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['role', 'staff.email', 'staff.id']);
  });

  it('stores the token only as its hash and the e-mail only sealed', async () => {
    const res = await mintLink(await app.currentToken(bankA), 'editor', { id: 'emp-7', email: 'sealed.person@bank-a.example' });
    const token = linkToken(res.body.data.url);
    const { rows } = await app.db.query<Record<string, unknown>>('select * from console_links where staff_id = $1', ['emp-7']);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('sealed.person');
    expect(rows[0]?.token_hash).toBe(app.ctx.tokens.hash(token));
  });
});

describe('GET /console/auth', () => {
  it('exchanges the link for a strict HttpOnly cookie scoped to /console and sends the browser to /console/', async () => {
    const link = await mintLink(await app.currentToken(bankA), 'viewer');
    const opened = await openLink(link.body.data.url);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/console/');
    expect(opened.headers.get('location')).not.toContain('token');
    const cookie = opened.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^console_session=css_sbx_[A-Za-z0-9]{40};/);
    for (const attribute of ['Max-Age=28800', 'Path=/console', 'HttpOnly', 'Secure', 'SameSite=Strict']) {
      expect(cookie).toContain(attribute);
    }
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    expect(opened.headers.get('cache-control')).toBe('no-store');
  });

  it('opens once: the second visit is a page saying so, and the cookie of the first still works', async () => {
    const link = await mintLink(await app.currentToken(bankA), 'viewer');
    const first = await openLink(link.body.data.url);
    const second = await openLink(link.body.data.url);
    expect(second.status).toBe(410);
    expect(second.headers.get('content-type')).toContain('text/html');
    expect(second.headers.get('set-cookie')).toBeNull();
    expect(await second.text()).toContain('This console link was already used');
    // In the browser's language when it prefers Spanish, in English when it prefers neither of the two.
    const spanish = await fetch(link.body.data.url, { redirect: 'manual', headers: { 'accept-language': 'es-US,es;q=0.9' } });
    expect(spanish.status).toBe(410);
    expect(spanish.headers.get('vary')).toContain('Accept-Language');
    const shown = await spanish.text();
    expect(shown).toContain('<html lang="es">');
    expect(shown).toContain('Este enlace de la consola ya se usó');
    const german = await fetch(link.body.data.url, { redirect: 'manual', headers: { 'accept-language': 'de-DE,fr;q=0.8' } });
    expect(await german.text()).toContain('This console link was already used');
    const session = await app.request('GET', '/console/session', { headers: { cookie: cookieOf(first) } });
    expect(session.status).toBe(200);
  });

  it('is not spent by a HEAD request, as link checkers send', async () => {
    const link = await mintLink(await app.currentToken(bankA), 'viewer');
    const head = await fetch(link.body.data.url, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(200);
    expect(head.headers.get('set-cookie')).toBeNull();
    expect((await openLink(link.body.data.url)).status).toBe(303);
  });

  it('opens once even when two visits race', async () => {
    const link = await mintLink(await app.currentToken(bankA), 'viewer');
    const answers = await Promise.all([openLink(link.body.data.url), openLink(link.body.data.url)]);
    expect(answers.map((res) => res.status).sort()).toEqual([303, 410]);
  });

  it('answers an expired, an unknown and a malformed link with a page that says what to do, never a 500', async () => {
    const link = await mintLink(await app.currentToken(bankA), 'viewer');
    app.clock.advance(10 * 60_000 + 1);
    const expired = await openLink(link.body.data.url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This console link has expired');

    const unknown = await openLink(`${app.url}/console/auth?token=cst_sbx_${'A'.repeat(40)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('not valid');
    const unknownEs = await fetch(`${app.url}/console/auth?token=cst_sbx_${'A'.repeat(40)}`, {
      redirect: 'manual',
      headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
    });
    expect(await unknownEs.text()).toContain('Este enlace de la consola no es válido');
    for (const query of ['', '?token=', '?token=garbage', '?token=a&token=b', '?token=%00', `?token=${'x'.repeat(5000)}`]) {
      const res = await openLink(`${app.url}/console/auth${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });
});

describe('the console session', () => {
  it('says who is signed in, for which bank, with the CSRF token; nothing without the cookie', async () => {
    const link = await mintLink(await app.currentToken(bankA), 'editor');
    const cookie = cookieOf(await openLink(link.body.data.url));
    const res = await app.request('GET', '/console/session', { headers: { cookie } });
    expect(res.body.data).toMatchObject({
      clientId: bankA.id,
      clientName: 'Bank A',
      environment: 'sandbox',
      staff: ANA,
      role: 'editor',
      scopes: ['read', 'write', 'offers', 'webhooks', 'admin'],
    });
    expect(res.body.data.csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const none = await app.request('GET', '/console/session');
    expect(none.status).toBe(401);
    const forged = await app.request('GET', '/console/session', {
      headers: { cookie: `console_session=css_sbx_${'B'.repeat(40)}` },
    });
    expect(forged.status).toBe(401);
  });

  it('lasts eight hours', async () => {
    const session = await signIn(await app.currentToken(bankA), 'viewer');
    app.clock.advance(8 * 3600_000 - 1000);
    expect((await consoleCall(session, 'GET', '/v1/webhooks')).status).toBe(200);
    app.clock.advance(2000);
    const ended = await consoleCall(session, 'GET', '/v1/webhooks');
    expect(ended.status).toBe(401);
    expect(ended.body.error.message).toContain('open a new console link');
  });

  it('ends on sign-out, which needs the CSRF header', async () => {
    const session = await signIn(await app.currentToken(bankA), 'viewer');
    const forged = await app.request('POST', '/console/signout', { headers: { cookie: session.cookie } });
    expect(forged.status).toBe(403);
    expect((await consoleCall(session, 'GET', '/v1/webhooks')).status).toBe(200);

    const out = await fetch(`${app.url}/console/signout`, {
      method: 'POST',
      headers: { cookie: session.cookie, [CONSOLE_CSRF_HEADER]: session.csrf },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^console_session=; Max-Age=0; Path=\/console/);
    expect((await consoleCall(session, 'GET', '/v1/webhooks')).status).toBe(401);
    expect((await app.request('GET', '/console/session', { headers: { cookie: session.cookie } })).status).toBe(401);
  });

  it('says so after sign-out in the language the console was in, whatever the browser prefers', async () => {
    const english = await (await fetch(`${app.url}/console/signed-out`)).text();
    expect(english).toContain('You are signed out of the console');
    const res = await fetch(`${app.url}/console/signed-out?lang=es`, { headers: { 'accept-language': 'en-US' } });
    expect(res.status).toBe(200);
    const spanish = await res.text();
    expect(spanish).toContain('<html lang="es">');
    expect(spanish).toContain('Cerró la sesión de la consola');
    expect(await (await fetch(`${app.url}/console/signed-out?lang=xx`)).text()).toContain('You are signed out');
  });
});

describe('a console session within the bank’s own rights', () => {
  it('reaches no scope the bank lacks, and ends with the bank’s secret rotation, unused links too', async () => {
    const bankC = await app.createClient({ name: 'Bank C', scopes: ['read', 'admin'] });
    const adminC = await app.token(bankC, 'admin');
    const editor = await signIn(adminC, 'editor', { id: 'emp-c', email: 'c@bank-c.example' });
    // The session says what the bank's client holds: the console hides the pages and buttons of the rest.
    const info = await app.request('GET', '/console/session', { headers: { cookie: editor.cookie } });
    expect(info.body.data.scopes).toEqual(['read', 'admin']);
    // An editor's role names webhooks and write, but this bank holds neither: refused by the console, on the trail.
    const webhooks = await consoleCall(editor, 'GET', '/v1/webhooks');
    expect(webhooks.status).toBe(403);
    expect(webhooks.body.error.message).toContain('does not hold the "webhooks" scope listWebhooks needs');
    const refusals = (await auditTrail(adminC)).filter((e) => e.type === 'console.request' && e.actor.id === 'emp-c');
    expect(refusals.map((e) => [e.subject.operationId, e.subject.access])).toEqual([['listWebhooks', 'refused']]);
    const from = app.clock.now().toISOString().slice(0, 10);
    const results = `/v1/offers/results?from=${from}&to=${from}&interval=day`;
    const unused = await mintLink(adminC, 'viewer');
    expect(unused.status).toBe(201);

    await rotateClientSecret(app.db, app.clock, bankC.id);
    expect((await consoleCall(editor, 'GET', results)).status).toBe(401);
    expect((await openLink(unused.body.data.url)).status).toBe(410);
  });
});

describe('/console/api: the partner operations, as the staff member', () => {
  it('answers what the API answers the bank', async () => {
    const session = await signIn(await app.currentToken(bankA), 'viewer');
    // From the enrolment's day to the clock's: earlier tests move the clock hours on, across midnight at some hours.
    const query = `?from=${enrolledOn}&to=${app.clock.now().toISOString().slice(0, 10)}&interval=day`;
    const direct = await app.request('GET', `/v1/offers/results${query}`, { token: await app.currentToken(bankA) });
    const viaConsole = await consoleCall(session, 'GET', `/v1/offers/results${query}`);
    expect(viaConsole.status, JSON.stringify(viaConsole.body)).toBe(200);
    expect(viaConsole.body.data).toEqual(direct.body.data);
    expect(viaConsole.body.data.totals.enrolled).toBe(1);
    // Counted as the bank's own calls are.
    expect(viaConsole.headers.get('x-ratelimit-limit')).toBe(direct.headers.get('x-ratelimit-limit'));
  });

  it('lets a viewer read and refuses every change with 403, buttons or not', async () => {
    const viewer = await signIn(await app.currentToken(bankA), 'viewer');
    expect((await consoleCall(viewer, 'GET', `/v1/webhooks/${webhookA}`)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', `/v1/webhooks/${webhookA}/test`, { eventType: 'user.enrolled' }],
      ['POST', `/v1/webhooks/${webhookA}/rotate-secret`, {}],
      ['POST', `/v1/webhooks/${webhookA}/recover`, { since: app.clock.now().toISOString() }],
      ['PATCH', `/v1/webhooks/${webhookA}`, { status: 'disabled' }],
    ] as const) {
      const res = await consoleCall(viewer, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
      expect(res.body.error.message).toContain('role is viewer');
    }
    const webhook = await app.request('GET', `/v1/webhooks/${webhookA}`, { token: await app.currentToken(bankA) });
    expect(webhook.body.data.status).toBe('active');
  });

  it('lets an editor change webhooks, with the CSRF header only', async () => {
    const editor = await signIn(await app.currentToken(bankA), 'editor');
    const withoutCsrf = await consoleCall(editor, 'POST', `/v1/webhooks/${webhookA}/test`, { eventType: 'user.enrolled' }, false);
    expect(withoutCsrf.status).toBe(403);
    expect(withoutCsrf.body.error.message).toContain(CONSOLE_CSRF_HEADER);
    const wrongCsrf = await app.request('POST', `/console/api/v1/webhooks/${webhookA}/test`, {
      headers: { cookie: editor.cookie, [CONSOLE_CSRF_HEADER]: 'f'.repeat(64) },
      body: { eventType: 'user.enrolled' },
    });
    expect(wrongCsrf.status).toBe(403);
    const test = await consoleCall(editor, 'POST', `/v1/webhooks/${webhookA}/test`, { eventType: 'user.enrolled' });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
  });

  it('calls nothing outside its table: no links, no tokens, no deletions, no per-user sandbox helpers', async () => {
    const editor = await signIn(await app.currentToken(bankA), 'editor');
    for (const [method, path, body] of [
      ['POST', '/v1/console/links', { staff: ANA, role: 'editor' }],
      ['POST', '/v1/auth/user-token', { externalUserId: 'a-cust-1', email: 'x@example.test', firstName: 'A', lastName: 'B' }],
      ['DELETE', `/v1/users/${userA}`, undefined],
      ['POST', `/v1/sandbox/users/${userA}/alerts`, { type: 'new_inquiry' }],
    ] as const) {
      const res = await consoleCall(editor, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const oauth = await app.request('POST', '/console/api/oauth/token', { headers: { cookie: editor.cookie } });
    expect(oauth.status).toBe(404);
    expect((await app.request('GET', `/v1/users/${userA}`, { token: await app.currentToken(bankA) })).status).toBe(200);
  });

  it('reads the audit trail and its check, and the events, as a viewer, with the scope of that operation only', async () => {
    const viewer = await signIn(await app.currentToken(bankA), 'viewer');
    const trail = await consoleCall(viewer, 'GET', '/v1/audit-events?limit=5');
    expect(trail.status, JSON.stringify(trail.body)).toBe(200);
    expect(trail.body.data.length).toBeGreaterThan(0);
    const verified = await consoleCall(viewer, 'POST', '/v1/audit-events/verify');
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.data).toMatchObject({ ok: true, clientId: bankA.id });
    const events = await consoleCall(viewer, 'GET', '/v1/events?limit=5');
    expect(events.status, JSON.stringify(events.body)).toBe(200);
    // Admitted for the audit trail is not admitted for what else `admin` opens: the table still decides.
    expect((await consoleCall(viewer, 'POST', '/v1/console/links', { staff: ANA, role: 'editor' })).status).toBe(403);
  });

  it('reads only the session: a bearer token is no console session, a console cookie no bearer token', async () => {
    const bearerOnly = await app.request('GET', '/console/api/v1/webhooks', { token: await app.currentToken(bankA) });
    expect(bearerOnly.status).toBe(401);
    const session = await signIn(await app.currentToken(bankA), 'editor');
    const cookieOnPartnerRoute = await app.request('GET', '/v1/webhooks', { headers: { cookie: session.cookie } });
    expect(cookieOnPartnerRoute.status).toBe(401);
  });

  it('shows a session of one bank nothing of another’s', async () => {
    const editorA = await signIn(await app.currentToken(bankA), 'editor');
    const webhooks = await consoleCall(editorA, 'GET', '/v1/webhooks');
    expect(webhooks.body.data.map((w: { webhookId: string }) => w.webhookId)).toEqual([webhookA]);
    const users = await consoleCall(editorA, 'GET', '/v1/users');
    expect(users.body.data.map((u: { userId: string }) => u.userId)).toEqual([userA]);
    const found = await consoleCall(editorA, 'GET', '/v1/users?externalUserId=b-cust-1');
    expect(found.body.data).toEqual([]);
    for (const path of [
      `/v1/webhooks/${webhookB}`,
      `/v1/users/${userB}`,
      `/v1/users/${userB}/consent`,
      `/v1/users/${userB}/alerts`,
    ]) {
      expect((await consoleCall(editorA, 'GET', path)).status, path).toBe(404);
    }
    expect((await consoleCall(editorA, 'POST', `/v1/webhooks/${webhookB}/test`, { eventType: 'user.enrolled' })).status).toBe(
      404,
    );
    const editorB = await signIn(await app.currentToken(bankB), 'editor', { id: 'emp-b', email: 'b@bank-b.example' });
    const own = await consoleCall(editorB, 'GET', '/v1/webhooks');
    expect(own.body.data.map((w: { webhookId: string }) => w.webhookId)).toEqual([webhookB]);
  });

  it('puts every sign-in, call and look at a customer on the bank’s audit trail under the staff member’s id', async () => {
    const viewer = await signIn(await app.currentToken(bankA), 'viewer', { id: 'emp-audit', email: 'audit@bank-a.example' });
    expect((await consoleCall(viewer, 'GET', `/v1/users/${userA}`)).status).toBe(200);
    expect((await consoleCall(viewer, 'POST', `/v1/webhooks/${webhookA}/test`, { eventType: 'user.enrolled' })).status).toBe(403);
    const mine = (await auditTrail(await app.currentToken(bankA))).filter(
      (e) => e.actor.id === 'emp-audit' || e.subject.staffId === 'emp-audit',
    );
    expect(mine.map((e) => [e.type, e.actor.kind])).toEqual(
      expect.arrayContaining([
        ['console.link_created', 'client'],
        ['console.signed_in', 'staff'],
        ['console.request', 'staff'],
        ['personal_data.read', 'staff'],
      ]),
    );
    const requests = mine.filter((e) => e.type === 'console.request').map((e) => e.subject);
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operationId: 'getUser', userId: userA, role: 'viewer', access: 'granted' }),
        expect.objectContaining({ operationId: 'testWebhook', webhookId: webhookA, access: 'refused' }),
      ]),
    );
    // Bank B's trail holds none of it.
    expect((await auditTrail(await app.currentToken(bankB))).some((e) => e.actor.id === 'emp-audit')).toBe(false);
  });

  it('writes no link token, session token, CSRF token or staff e-mail to the logs', async () => {
    const staff = { id: 'emp-logs', email: 'logged.person@bank-a.example' };
    const link = await mintLink(await app.currentToken(bankA), 'editor', staff);
    const opened = await openLink(link.body.data.url);
    const cookie = cookieOf(opened);
    const session = await app.request('GET', '/console/session', { headers: { cookie } });
    await app.request('GET', '/console/api/v1/webhooks', { headers: { cookie } });
    const logs = app.logs.join('');
    expect(logs).toContain('/console/api/v1/webhooks');
    const secrets = [linkToken(link.body.data.url), cookie.split('=')[1] as string, session.body.data.csrfToken, 'logged.person'];
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });
});

describe('the console page', () => {
  const built = existsSync(CONSOLE_INDEX_FILE);

  it('is built (pnpm build runs before the suite)', () => {
    expect(built, 'run `pnpm build` first').toBe(true);
  });

  const policy = async (cookie?: string) => {
    const res = await fetch(`${app.url}/console/`, { headers: cookie ? { cookie } : {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBeNull();
    return res.headers.get('content-security-policy') ?? '';
  };

  it.runIf(built)('has a strict policy, framed only by the signed-in bank’s embed origins', async () => {
    const anonymous = await policy();
    expect(anonymous).toContain("script-src 'self';");
    expect(anonymous).not.toContain('unsafe-inline');
    expect(anonymous).toContain("frame-ancestors 'none'");
    const session = await signIn(await app.currentToken(bankA), 'viewer');
    expect(await policy(session.cookie)).toContain(`frame-ancestors ${BANK_ORIGIN}`);
    const other = await signIn(await app.currentToken(bankB), 'viewer', { id: 'emp-b', email: 'b@bank-b.example' });
    // Bank B lists no origin of its own: a sandbox client's default, any localhost port.
    const policyB = await policy(other.cookie);
    expect(policyB).toContain('frame-ancestors http://localhost:*');
    expect(policyB).not.toContain(BANK_ORIGIN);
  });

  it.runIf(built)('serves its hashed assets for a year, before any session', async () => {
    const html = await (await fetch(`${app.url}/console/`)).text();
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${app.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${app.url}/console/assets/..%2fpackage.json`)).status).toBe(404);
  });
});
