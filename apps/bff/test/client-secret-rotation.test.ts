import { CONSOLE_CSRF_HEADER } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/**
 * Rotating the client secret with an overlap (Stripe's rolled keys): both secrets mint tokens until the end the
 * rotation chose, then only the new one; no overlap ends the old secret, its tokens and console sessions at once.
 */

const ROTATE = '/v1/client/secret/rotate';
const CREDENTIALS = '/v1/client/credentials';
const STAFF = { id: 'emp-7310', email: 'lea.moreau@bank.example' };

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ config: { RATE_LIMIT_AUTH_PER_MIN: '10000' } });
});
afterAll(() => app.close());

/** A token request as the bank's server sends it: the status, and the token when one was minted. */
const mint = async (clientId: string, secret: string) => {
  const res = await app.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
  });
  return { status: res.status, token: res.body.access_token as string | undefined, expiresIn: res.body.expires_in };
};

const rotate = (token: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.request('POST', ROTATE, { token, headers, ...(body !== undefined ? { body } : {}) });

/** Whether a token still opens a read. */
const works = async (token: string) => (await app.request('GET', CREDENTIALS, { token })).status === 200;

const auditEntries = async (token: string, type: string) => {
  const res: ApiResponse = await app.request('GET', `/v1/audit-events?type=${type}&limit=100`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { actor: { kind: string; id: string }; subject: Record<string, string> }[];
};

const freshClient = async (): Promise<{ client: TestClient; admin: string }> => {
  const client = await app.createClient();
  return { client, admin: await app.token(client, 'admin') };
};

describe('GET /v1/client/credentials', () => {
  it('answers the client id and when the secret was made, never a secret or its hash', async () => {
    const { client, admin } = await freshClient();
    const res = await app.request('GET', CREDENTIALS, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ clientId: client.id, secretCreatedAt: app.clock.now().toISOString(), previousSecret: null });
    expect(JSON.stringify(res.body)).not.toContain(client.secret);
    expect(JSON.stringify(res.body)).not.toContain('scrypt');
  });
});

describe('POST /v1/client/secret/rotate', () => {
  it('keeps both secrets minting tokens during the overlap, then only the new one', async () => {
    const { client, admin } = await freshClient();
    const rotatedAt = app.clock.now();
    const res = await rotate(admin, { overlapSeconds: 7200 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { secret, previousSecretExpiresAt, secretCreatedAt } = res.body.data;
    expect(secret).toMatch(/^sk_[A-Za-z0-9_-]{40,}$/);
    expect(secretCreatedAt).toBe(rotatedAt.toISOString());
    expect(previousSecretExpiresAt).toBe(new Date(rotatedAt.getTime() + 7200_000).toISOString());
    // The token that asked, and any other open one, keep working: nothing is revoked during an overlap.
    expect(await works(admin)).toBe(true);

    const state = await app.request('GET', CREDENTIALS, { token: admin });
    expect(state.body.data).toEqual({
      clientId: client.id,
      secretCreatedAt: rotatedAt.toISOString(),
      previousSecret: { expiresAt: previousSecretExpiresAt },
    });

    const withNew = await mint(client.id, secret);
    expect(withNew.status).toBe(200);
    expect(withNew.expiresIn).toBe(3600);
    app.clock.advance(6000_000);
    // 1200 s of the overlap left: a token of the previous secret ends with it, not an hour later.
    const withOld = await mint(client.id, client.secret);
    expect(withOld.status).toBe(200);
    expect(withOld.expiresIn).toBe(1200);
    expect(await works(withOld.token as string)).toBe(true);

    app.clock.advance(1200_000);
    expect((await mint(client.id, client.secret)).status).toBe(401);
    expect(await works(withOld.token as string)).toBe(false);
    const afterwards = await mint(client.id, secret);
    expect(afterwards.status).toBe(200);
    const later = await app.request('GET', CREDENTIALS, { token: afterwards.token as string });
    expect(later.body.data.previousSecret).toBeNull();
  });

  it('overlaps a day when the body names no overlap', async () => {
    const { client, admin } = await freshClient();
    const res = await rotate(admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Date.parse(res.body.data.previousSecretExpiresAt) - app.clock.now().getTime()).toBe(86_400_000);
    expect((await mint(client.id, client.secret)).status).toBe(200);
  });

  it('with overlap 0 ends the previous secret and every token of the client now', async () => {
    const { client, admin } = await freshClient();
    const other = await app.token(client, 'read');
    const res = await rotate(admin, { overlapSeconds: 0 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.previousSecretExpiresAt).toBe(app.clock.now().toISOString());
    expect((await mint(client.id, client.secret)).status).toBe(401);
    expect(await works(admin)).toBe(false);
    expect((await app.request('GET', '/v1/users', { token: other })).status).toBe(401);
    const fresh = await mint(client.id, res.body.data.secret);
    expect(fresh.status).toBe(200);
    expect((await app.request('GET', CREDENTIALS, { token: fresh.token as string })).body.data.previousSecret).toBeNull();
  });

  it('drops the oldest secret at once when it rotates again during an overlap', async () => {
    const { client, admin } = await freshClient();
    const first = await rotate(admin, { overlapSeconds: 3600 });
    const second = await rotate(admin, { overlapSeconds: 3600 });
    expect(second.status).toBe(200);
    expect((await mint(client.id, client.secret)).status).toBe(401);
    expect((await mint(client.id, first.body.data.secret)).status).toBe(200);
    expect((await mint(client.id, second.body.data.secret)).status).toBe(200);
  });

  it('refuses an overlap outside 0 to 7 days with a 400 naming it', async () => {
    const { client, admin } = await freshClient();
    for (const overlapSeconds of [-1, 604_801, 1.5, '3600', null]) {
      const res = await rotate(admin, { overlapSeconds });
      expect(res.status, JSON.stringify(overlapSeconds)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('overlapSeconds');
    }
    expect((await rotate(admin, { overlapSeconds: 60, extra: 1 })).status).toBe(400);
    // Nothing changed: the secret is the one the client was made with, alone.
    expect((await app.request('GET', CREDENTIALS, { token: admin })).body.data.previousSecret).toBeNull();
    expect((await mint(client.id, client.secret)).status).toBe(200);
  });

  it('answers 403 to a token without admin and to a user token, for both operations', async () => {
    const { client, admin } = await freshClient();
    const user = await app.userToken(admin, 'rotation-user');
    for (const token of [await app.token(client, 'read write webhooks'), user]) {
      expect((await rotate(token, { overlapSeconds: 60 })).status).toBe(403);
      expect((await app.request('GET', CREDENTIALS, { token })).status).toBe(403);
    }
    expect((await mint(client.id, client.secret)).status).toBe(200);
    expect((await app.request('GET', CREDENTIALS, { token: admin })).body.data.previousSecret).toBeNull();
  });

  it('leaves another client’s secret and tokens alone', async () => {
    const a = await freshClient();
    const b = await freshClient();
    const bToken = await app.token(b.client, 'read');
    expect((await rotate(a.admin, { overlapSeconds: 0 })).status).toBe(200);
    expect((await mint(b.client.id, b.client.secret)).status).toBe(200);
    expect((await app.request('GET', '/v1/users', { token: bToken })).status).toBe(200);
    expect((await app.request('GET', CREDENTIALS, { token: b.admin })).body.data.previousSecret).toBeNull();
  });

  it('is on the audit trail with its caller and overlap, and the secret is in no log and no entry', async () => {
    const { client, admin } = await freshClient();
    const res = await rotate(admin, { overlapSeconds: 600 });
    expect(res.status).toBe(200);
    const { secret } = res.body.data;
    const [entry, ...more] = await auditEntries(admin, 'client.secret_rotated');
    expect(more).toEqual([]);
    expect(entry?.actor).toEqual({ kind: 'client', id: client.id });
    expect(entry?.subject).toEqual({
      overlapSeconds: '600',
      previousSecretExpiresAt: res.body.data.previousSecretExpiresAt,
    });
    expect(JSON.stringify(entry)).not.toContain(secret);
    expect(app.logs.join('\n')).not.toContain(secret);
    expect(app.logs.join('\n')).not.toContain(client.secret);
  });

  it('answers the same secret to a retry with the same Idempotency-Key, rotating once', async () => {
    const { client, admin } = await freshClient();
    const headers = { 'idempotency-key': 'rotate-once-0001' };
    const first = await rotate(admin, { overlapSeconds: 300 }, headers);
    const again = await rotate(admin, { overlapSeconds: 300 }, headers);
    expect(again.status).toBe(200);
    expect(again.body.data.secret).toBe(first.body.data.secret);
    expect((await mint(client.id, client.secret)).status).toBe(200);
    expect(await auditEntries(admin, 'client.secret_rotated')).toHaveLength(1);
  });
});

describe('the console', () => {
  const signIn = async (admin: string, role: 'viewer' | 'editor', staff = STAFF) => {
    const link = await app.request('POST', '/v1/console/links', { token: admin, body: { staff, role } });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const opened = await fetch(link.body.data.url, { redirect: 'manual' });
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const session = await app.request('GET', '/console/session', { headers: { cookie } });
    return { cookie, csrf: session.body.data.csrfToken as string };
  };
  const call = (session: { cookie: string; csrf: string }, method: string, path: string, body?: unknown) =>
    app.request(method, `/console/api${path}`, {
      headers: { cookie: session.cookie, ...(method === 'GET' ? {} : { [CONSOLE_CSRF_HEADER]: session.csrf }) },
      ...(body !== undefined ? { body } : {}),
    });

  it('lets an editor rotate, recorded under the staff member, and a viewer only read', async () => {
    const { client, admin } = await freshClient();
    const viewer = await signIn(admin, 'viewer', { id: 'emp-0001', email: 'viewer@bank.example' });
    const editor = await signIn(admin, 'editor');
    expect((await call(viewer, 'GET', CREDENTIALS)).status).toBe(200);
    expect((await call(viewer, 'POST', ROTATE, { overlapSeconds: 60 })).status).toBe(403);

    const res = await call(editor, 'POST', ROTATE, { overlapSeconds: 3600 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await mint(client.id, res.body.data.secret)).status).toBe(200);
    expect((await mint(client.id, client.secret)).status).toBe(200);
    const state = await call(viewer, 'GET', CREDENTIALS);
    expect(state.body.data.previousSecret).toEqual({ expiresAt: res.body.data.previousSecretExpiresAt });
    const entries = await auditEntries(admin, 'client.secret_rotated');
    expect(entries.map((e) => e.actor)).toEqual([{ kind: 'staff', id: STAFF.id }]);
  });

  it('with overlap 0 ends every other console session but keeps the one that asked', async () => {
    const { client, admin } = await freshClient();
    const other = await signIn(admin, 'viewer', { id: 'emp-0002', email: 'other@bank.example' });
    const editor = await signIn(admin, 'editor');
    const res = await call(editor, 'POST', ROTATE, { overlapSeconds: 0 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await call(other, 'GET', CREDENTIALS)).status).toBe(401);
    const state = await call(editor, 'GET', CREDENTIALS);
    expect(state.status).toBe(200);
    expect(state.body.data.previousSecret).toBeNull();
    expect((await mint(client.id, client.secret)).status).toBe(401);
  });
});
