import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_OPERATIONS, type Operation, SCOPES } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { REPO_ROOT } from './helpers/processes.ts';

/** Every bearer route of the contract: the whole spec is served. */
const bearerOperations = ALL_OPERATIONS.filter((op): op is Operation & { auth: { kind: 'bearer' } } => op.auth.kind === 'bearer');

/** Well-formed ids for the other path parameters: the route must decide on auth before it looks them up. */
const PLACEHOLDER_IDS: Record<string, string> = {
  offerId: 'off_nwbCashBack001',
  alertId: 'alt_doesNotExist0001',
  webhookId: 'wh_doesNotExist0001',
  clockId: 'clk_doesNotExist0001',
};

let app: TestApp;
let client: TestClient;
let userId: string;
let userToken: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  const token = await app.token(client);
  // Active, so credit routes get past USER_NOT_ENROLLED and only the auth rules decide.
  userId = await enrolActiveUser(app, token);
  userToken = await app.userToken(token, 'matrix-user');
});
afterAll(() => app.close());

const call = (op: Operation, headers: Record<string, string>) =>
  app.request(
    op.method.toUpperCase(),
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'userId' ? userId : (PLACEHOLDER_IDS[name] ?? name))),
    {
      headers,
      ...(op.method === 'post' || op.method === 'patch' ? { body: {} } : {}),
    },
  );

describe.each(bearerOperations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', (_name, op) => {
  it('answers 401 without a token, with a garbage token and with Basic credentials', async () => {
    for (const headers of [{}, { authorization: 'Bearer garbage' }, { authorization: 'Basic Zm9vOmJhcg==' }] as Record<
      string,
      string
    >[]) {
      const res = await call(op, headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
      // RFC 6750 §3: the challenge names the scheme, and says why when a bearer token was sent.
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      if (headers.authorization?.startsWith('Bearer ')) {
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
    }
  });

  it(`answers 403 to an access token without "${op.auth.scope}"`, async () => {
    const others = SCOPES.filter((s) => s !== op.auth.scope && s !== 'admin');
    const res = await call(op, { authorization: `Bearer ${await app.token(client, others.join(' '))}` });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
  });

  it('lets an admin token through the scope check', async () => {
    const res = await call(op, { authorization: `Bearer ${await app.token(client, 'admin')}` });
    expect(res.status).not.toBe(401);
    if (!op.auth.userTokenOnly) expect(res.body?.error?.code).not.toBe('AUTHORIZATION_ERROR');
  });

  it(op.auth.userToken ? 'accepts a user token' : 'refuses a user token with 403', async () => {
    const res = await call(op, { authorization: `Bearer ${userToken}` });
    if (op.auth.userToken) {
      expect(res.status).not.toBe(401);
      expect(res.body?.error?.code).not.toBe('AUTHORIZATION_ERROR');
    } else {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    }
  });
});

/** The interface specification the API implements: the repository is cloned with `shared/` beside it. */
const SPEC_FILE = path.resolve(REPO_ROOT, '../shared/spec/credit-api-spec.md');

/**
 * Every `METHOD /path` the specification names: its endpoint tables (`| GET | /v1/users/{userId} |`) and
 * the endpoints it mentions in prose (`POST {base_url}/oauth/token`, `GET /v1/users (list)`); paths start
 * lower-case, which leaves out the `POST/PUT` of its header table.
 */
const specEndpoints = (text: string): Set<string> =>
  new Set(
    [...text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s*\|?\s*(?:\{base_url\})?(\/[a-z][A-Za-z0-9_{}/-]*[A-Za-z0-9_}])/g)].map(
      ([, method, route]) => `${method} ${route}`,
    ),
  );

/** Operations the API has beyond the specification, each on purpose. */
const EXTENSIONS = [
  'GET /v1/me', // the user a user token belongs to (the widget's first call)
  'GET /v1/webhooks/{webhookId}', // one subscription; the spec lists only the collection
  'POST /v1/users/{userId}/credit-score/refresh', // refresh now, outside the monitoring schedule (DECISIONS)
  'POST /v1/sandbox/users/{userId}/score-refresh',
  'POST /v1/sandbox/users/{userId}/alerts',
  'POST /v1/sandbox/users/{userId}/offers/{offerId}/convert',
  'GET /v1/sandbox/users/{userId}/verification/answers',
  // Sandbox test clocks (issue 22, DECISIONS "Monitoring and the sandbox clock").
  'POST /v1/sandbox/clocks',
  'GET /v1/sandbox/clocks',
  'GET /v1/sandbox/clocks/{clockId}',
  'POST /v1/sandbox/clocks/{clockId}/users',
  'POST /v1/sandbox/clocks/{clockId}/advance',
  'DELETE /v1/sandbox/clocks/{clockId}',
  // Consent (issue 24): the consumer's instruction behind every pull; read, granted and withdrawn per user.
  'GET /v1/users/{userId}/consent',
  'POST /v1/users/{userId}/consent',
  'POST /v1/users/{userId}/consent/withdraw',
  'GET /v1/users/{userId}/consent/history', // every record, a page at a time (the state lists the 25 most recent)
  // Audit trail (issue 24): the client's tamper-evident record of reads, pulls, tokens, deletions and secrets.
  'GET /v1/audit-events',
  'POST /widget/session', // the widget frame's cookie session
  'GET /widget/session',
];

const endpointOf = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

describe('coverage', () => {
  it('reads the specification', () => {
    expect(existsSync(SPEC_FILE), `${SPEC_FILE} is missing: clone the repository with shared/ beside it`).toBe(true);
    // The tables alone list 20 endpoints; a parser that finds fewer has stopped reading the spec.
    expect(specEndpoints(readFileSync(SPEC_FILE, 'utf8')).size).toBeGreaterThanOrEqual(20);
  });

  it('has an operation for every endpoint of the spec, and each other operation is a listed extension', () => {
    const spec = specEndpoints(readFileSync(SPEC_FILE, 'utf8'));
    const contract = ALL_OPERATIONS.map(endpointOf);
    expect(
      [...spec].filter((e) => !contract.includes(e)),
      'spec endpoints without an operation',
    ).toEqual([]);
    expect(
      contract.filter((e) => !spec.has(e) && !EXTENSIONS.includes(e)),
      'operations neither in the spec nor listed as extensions',
    ).toEqual([]);
    expect(
      EXTENSIONS.filter((e) => spec.has(e) || !contract.includes(e)),
      'extensions that are in the spec or not in the contract',
    ).toEqual([]);
  });

  it('runs the matrix over every bearer endpoint of the spec and every extension', () => {
    const spec = specEndpoints(readFileSync(SPEC_FILE, 'utf8'));
    // Only the token endpoint authenticates by client credentials instead of a bearer token.
    const expected = [...spec, ...EXTENSIONS].filter((e) => e !== 'POST /oauth/token').sort();
    expect(bearerOperations.map(endpointOf).sort()).toEqual(expected);
  });
});
