import { ALL_OPERATIONS, type Operation, SCOPES, type Scope } from '@credit/contract';
import { enrolActiveUser, enrolUser } from './credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './harness.ts';
import { type CheckedDocument, createOpenApiChecker, type OpenApiChecker } from './openapi-check.ts';

/**
 * The state the fuzz runs against: real callers (so requests get past auth to validation and the
 * database) and real ids of every kind (so they get past "not found" to the services).
 */
export interface FuzzWorld {
  app: TestApp;
  client: TestClient;
  /** Built from the `/openapi.json` the running app serves, not from the contract in-process. */
  checker: OpenApiChecker;
  tokens: { admin: string; otherClient: string; user: string; byScope: Record<Scope, string> };
  users: { active: string; frozen: string; pending: string; victim: string };
  /** The `accountId`s on the active user's credit report, open accounts first: what simulation actions name. */
  accounts: string[];
  offers: string[];
  /** An offer of the client's own that the state-changing offer operations (update, pause, archive) act on. */
  victimOffer: string;
  clickId: string;
  alertId: string;
  webhooks: { live: string; victim: string };
  /** A delivery of a stored event to `webhooks.live` (retryable), and one of the client's events. */
  deliveryId: string;
  eventId: string;
  clocks: { live: string; victim: string };
  sessionId: string;
  /** A real `nextCursor` of each list that had a second page, by operationId. */
  cursors: Record<string, string>;
}

/** High enough that the fuzz never meets a 429: rate limiting has its own tests. */
const UNLIMITED = {
  RATE_LIMIT_AUTH_PER_MIN: '1000000',
  RATE_LIMIT_BATCH_PER_MIN: '1000000',
  RATE_LIMIT_USER_OPS_PER_MIN: '1000000',
};
export const WEBHOOK_URL = 'https://127.0.0.1:9/hooks';
export const EMBED_ORIGIN = 'http://localhost:3001';

const ok = <T>(res: { status: number; body: T }, status: number, what: string): T => {
  if (res.status !== status) throw new Error(`fuzz set-up: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

export const startFuzzWorld = async (): Promise<FuzzWorld> => {
  const app = await startTestApp({ config: UNLIMITED });
  const client = await app.createClient();
  const admin = await app.token(client, 'admin');
  const byScope = Object.fromEntries(await Promise.all(SCOPES.map(async (s) => [s, await app.token(client, s)]))) as Record<
    Scope,
    string
  >;
  const otherClient = await app.token(await app.createClient(), 'admin');

  const active = await enrolActiveUser(app, admin, { externalUserId: 'fuzz-active' });
  const frozen = await enrolActiveUser(app, admin, { externalUserId: 'fuzz-frozen', ssn: '0000' });
  const pending = await enrolUser(app, admin, { externalUserId: 'fuzz-pending' });
  const victim = await enrolUser(app, admin, { externalUserId: 'fuzz-victim' });
  const user = await app.userToken(admin, 'fuzz-active');

  const catalogue = ok(await app.request('GET', '/v1/offers?limit=3', { token: admin }), 200, 'offers') as {
    data: { offerId: string }[];
  };
  const offers = catalogue.data.map((o) => o.offerId);
  const report = ok(await app.request('GET', `/v1/users/${active}/credit-report`, { token: admin }), 200, 'report') as {
    data: { accounts: { accountId: string }[] };
  };
  const accounts = report.data.accounts.map((a) => a.accountId);
  for (const type of ['new_inquiry', 'score_change']) {
    ok(await app.request('POST', `/v1/sandbox/users/${active}/alerts`, { token: admin, body: { type } }), 201, 'alert');
  }
  const alerts = ok(await app.request('GET', `/v1/users/${active}/alerts`, { token: admin }), 200, 'alerts') as {
    data: { alertId: string }[];
  };
  const click = ok(
    await app.request('POST', `/v1/users/${active}/offers/${offers[0]}/click`, { token: admin, body: {} }),
    201,
    'click',
  ) as { data: { clickId: string } };
  const victimOffer = ok(
    await app.request('POST', '/v1/offers', {
      token: admin,
      body: {
        type: 'credit_card',
        name: 'Fuzz Card',
        description: 'The offer the fuzz changes.',
        aprType: 'variable',
        tiers: [{ minScore: 300, maxScore: 850, apr: 20 }],
        applicationUrl: 'https://apply.fuzz.example/card?c={clickId}',
      },
    }),
    201,
    'offer',
  ) as { data: { offerId: string } };

  const webhook = async () =>
    (
      ok(
        await app.request('POST', '/v1/webhooks', {
          token: admin,
          body: { url: WEBHOOK_URL, events: ['user.enrolled'], secret: 'whsec_fuzz_0123456789abcdef' },
        }),
        201,
        'webhook',
      ) as { data: { webhookId: string } }
    ).data.webhookId;
  const webhooks = { live: await webhook(), victim: await webhook() };
  for (let i = 0; i < 2; i += 1) {
    // Port 9 refuses at once: a failed attempt, so the delivery log has entries to page through.
    ok(
      await app.request('POST', `/v1/webhooks/${webhooks.live}/test`, { token: admin, body: { eventType: 'user.enrolled' } }),
      200,
      'test delivery',
    );
  }
  // An event after the subscription began, queued for it by `recover`: a delivery that can be resent.
  await enrolUser(app, admin, { externalUserId: 'fuzz-delivered' });
  ok(
    await app.request('POST', `/v1/webhooks/${webhooks.live}/recover`, {
      token: admin,
      body: { since: new Date(app.clock.now().getTime() - 60_000).toISOString() },
    }),
    202,
    'recover',
  );
  const { rows: deliveries } = await app.db.query<{ id: string; event_id: string }>(
    "select id, event_id from webhook_deliveries where webhook_id = $1 and state = 'pending'",
    [webhooks.live],
  );
  const session = ok(
    await app.request('GET', `/v1/users/${pending}/verification/questions`, { token: admin }),
    200,
    'questions',
  ) as { data: { sessionId: string } };

  const clock = async () =>
    (
      ok(await app.request('POST', '/v1/sandbox/clocks', { token: admin, body: {} }), 201, 'clock') as {
        data: { clockId: string };
      }
    ).data.clockId;
  const clocks = { live: await clock(), victim: await clock() };

  const served = await fetch(`${app.url}/openapi.json`);
  const checker = createOpenApiChecker((await served.json()) as CheckedDocument);

  const world: FuzzWorld = {
    app,
    client,
    checker,
    tokens: { admin, otherClient, user, byScope },
    users: { active, frozen, pending, victim },
    accounts,
    offers,
    victimOffer: victimOffer.data.offerId,
    clickId: click.data.clickId,
    alertId: alerts.data[0]?.alertId as string,
    webhooks,
    deliveryId: deliveries[0]?.id as string,
    eventId: deliveries[0]?.event_id as string,
    clocks,
    sessionId: session.data.sessionId,
    cursors: {},
  };
  for (const op of ALL_OPERATIONS.filter((o) => o.success.list && o.request.query?.shape.cursor)) {
    const res = await app.request('GET', `${fixturePath(world, op)}?limit=1`, { token: admin });
    const cursor = (res.body as { pagination?: { nextCursor?: string | null } }).pagination?.nextCursor;
    if (cursor) world.cursors[op.operationId] = cursor;
  }
  return world;
};

/** The ids a path parameter takes in a well-formed request, chosen so destructive operations spare the others' fixtures. */
export const fixtureIds = (world: FuzzWorld, op: Operation, name: string): string[] => {
  switch (name) {
    case 'userId':
      if (op.operationId === 'deleteUser') return [world.users.victim];
      if (op.operationId === 'submitVerificationAnswers') return [world.users.pending];
      if (op.tag === 'Identity verification') return [world.users.pending, world.users.active];
      return [world.users.active, world.users.frozen, world.users.pending];
    case 'offerId':
      if (['updateOffer', 'pauseOffer', 'resumeOffer', 'archiveOffer'].includes(op.operationId)) return [world.victimOffer];
      return world.offers;
    case 'clickId':
      return [world.clickId];
    case 'version':
      return ['1'];
    case 'alertId':
      return [world.alertId];
    case 'webhookId':
      return [op.operationId === 'deleteWebhook' ? world.webhooks.victim : world.webhooks.live];
    case 'deliveryId':
      return [world.deliveryId];
    case 'eventId':
      return [world.eventId];
    case 'clockId':
      return [op.operationId === 'deleteSandboxClock' ? world.clocks.victim : world.clocks.live];
    default:
      throw new Error(`the fuzz has no fixture for path parameter ${name} of ${op.operationId}: add one`);
  }
};

export const fixturePath = (world: FuzzWorld, op: Operation) =>
  op.path.replace(/\{(\w+)\}/g, (_m, name: string) => fixtureIds(world, op, name)[0] as string);
