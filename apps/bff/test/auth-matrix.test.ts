import { ALL_OPERATIONS, type Operation, SCOPES } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERFACE_ENDPOINTS } from './fixtures/interface-endpoints.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/** Every bearer route of the contract: the whole spec is served. */
const bearerOperations = ALL_OPERATIONS.filter((op): op is Operation & { auth: { kind: 'bearer' } } => op.auth.kind === 'bearer');

/** Well-formed ids for the other path parameters: the route must decide on auth before it looks them up. */
const PLACEHOLDER_IDS: Record<string, string> = {
  offerId: 'off_doesNotExist0001',
  clickId: 'clk_doesNotExist0001',
  version: '1',
  alertId: 'alt_doesNotExist0001',
  webhookId: 'wh_doesNotExist0001',
  deliveryId: 'del_doesNotExist0001',
  eventId: 'evt_doesNotExist0001',
  clockId: 'clk_doesNotExist0001',
};

let app: TestApp;
let client: TestClient;
let userId: string;
let userToken: string;

beforeAll(async () => {
  // Two token requests per operation and case: more than the default 100 a minute; rate limits have their own tests.
  app = await startTestApp({ config: { RATE_LIMIT_AUTH_PER_MIN: '10000' } });
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

/** `METHOD /path`, as the interface and the contract's operations are compared. */
const endpointKey = (method: string, route: string) => `${method.toUpperCase()} ${route}`;

/** Every endpoint of the interface specification (fixtures/interface-endpoints.ts), by `METHOD /path`. */
const SPEC_ENDPOINTS = new Map(INTERFACE_ENDPOINTS.map((endpoint) => [endpointKey(endpoint.method, endpoint.path), endpoint]));

/** Operations the API has beyond the specification, each on purpose. */
const EXTENSIONS = [
  'GET /v1/me', // the user a user token belongs to (the widget's first call)
  'GET /v1/webhooks/{webhookId}', // one subscription; the spec lists only the collection
  // Recovering after an outage (webhooks guide): resend one delivery, recover since, the events for reconciliation.
  'POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
  'POST /v1/webhooks/{webhookId}/recover',
  'POST /v1/webhooks/{webhookId}/rotate-secret', // Svix's rotate: to a generated secret, both signing for 24 h
  'GET /v1/events',
  'GET /v1/events/{eventId}',
  'POST /v1/users/{userId}/credit-score/refresh', // refresh now, outside the monitoring schedule (DECISIONS)
  // The report behind the score and what-ifs on it, both from the file on record (never a pull).
  'GET /v1/users/{userId}/credit-report',
  'POST /v1/users/{userId}/credit-score/simulations',
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
  'POST /v1/audit-events/verify', // the chain checked by the running service (the CLI's `verify --api`)
  // The bank's own offers program: its catalogue, impressions, outcomes against clicks, audiences and results.
  'POST /v1/offers',
  'GET /v1/offers/{offerId}',
  'GET /v1/offers/{offerId}/versions/{version}',
  'PATCH /v1/offers/{offerId}',
  'POST /v1/offers/{offerId}/pause',
  'POST /v1/offers/{offerId}/resume',
  'POST /v1/offers/{offerId}/archive',
  'GET /v1/offers/{offerId}/audience',
  'POST /v1/offers/audience-preview', // the count an audience would have, for terms not saved yet (the console's editor)
  'GET /v1/offers/clicks/{clickId}',
  'POST /v1/offers/clicks/{clickId}/outcomes',
  'GET /v1/offers/results',
  'POST /v1/users/{userId}/offers/impressions',
  'POST /widget/session', // the widget frame's cookie session
  'GET /widget/session',
  'POST /v1/console/links', // a one-time console sign-in for one of the bank's staff (docs/partner/console.md)
  'GET /v1/client/credentials', // the client secret's state: when made, the previous one's end; never a secret
  'POST /v1/client/secret/rotate', // a new client secret, the previous one valid for the overlap the bank chooses
];

const endpointOf = (op: Operation) => endpointKey(op.method, op.path);

describe('coverage', () => {
  it('has an operation for every endpoint of the interface, authenticated the way the interface says', () => {
    const contract = new Map(ALL_OPERATIONS.map((op) => [endpointOf(op), op.auth.kind]));
    expect(
      [...SPEC_ENDPOINTS.values()]
        .filter((endpoint) => contract.get(endpointKey(endpoint.method, endpoint.path)) !== endpoint.auth)
        .map((endpoint) => `${endpointKey(endpoint.method, endpoint.path)} (${endpoint.auth})`),
      'interface endpoints without an operation, or authenticated otherwise',
    ).toEqual([]);
  });

  it('has no operation beyond the interface but the listed extensions', () => {
    const contract = ALL_OPERATIONS.map(endpointOf);
    expect(
      contract.filter((e) => !SPEC_ENDPOINTS.has(e) && !EXTENSIONS.includes(e)),
      'operations neither in the interface nor listed as extensions',
    ).toEqual([]);
    expect(
      EXTENSIONS.filter((e) => SPEC_ENDPOINTS.has(e) || !contract.includes(e)),
      'extensions that are in the interface or not in the contract',
    ).toEqual([]);
  });

  it('runs the matrix over every bearer endpoint of the interface and every extension', () => {
    const bearerOfSpec = [...SPEC_ENDPOINTS].filter(([, endpoint]) => endpoint.auth === 'bearer').map(([key]) => key);
    expect(bearerOperations.map(endpointOf).sort()).toEqual([...bearerOfSpec, ...EXTENSIONS].sort());
  });
});
