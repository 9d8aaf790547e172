import { describe, expect, it } from 'vitest';
import {
  ALL_OPERATIONS,
  buildOpenApiDocument,
  EVENT_DATA_SCHEMAS,
  EVENT_TYPES,
  ratingForScore,
  ZCreateWebhookInput,
  ZCreditHistoryQuery,
  ZEventEnvelope,
  ZListOffersCatalogQuery,
  ZListUserOffersQuery,
  ZUpdateWebhookInput,
} from '../src/index.ts';

/** Every endpoint of the spec's Endpoints section, the offer catalogue and the sandbox helpers of DECISIONS. */
const SPEC_ENDPOINTS = [
  'POST /oauth/token',
  'POST /v1/auth/user-token',
  'POST /v1/users/enroll',
  'GET /v1/users/{userId}',
  'DELETE /v1/users/{userId}',
  'POST /v1/users/enroll/batch',
  'GET /v1/users/{userId}/credit-score',
  'GET /v1/users/{userId}/credit-score/history',
  'GET /v1/users/{userId}/offers',
  'POST /v1/users/{userId}/offers/{offerId}/click',
  'GET /v1/users/{userId}/alerts',
  'PATCH /v1/users/{userId}/alerts/{alertId}',
  'GET /v1/users/{userId}/verification/questions',
  'POST /v1/users/{userId}/verification/answers',
  'POST /v1/webhooks',
  'GET /v1/webhooks',
  'PATCH /v1/webhooks/{webhookId}',
  'DELETE /v1/webhooks/{webhookId}',
  'POST /v1/webhooks/{webhookId}/test',
  'GET /v1/webhooks/{webhookId}/logs',
  'GET /v1/offers',
  'POST /v1/sandbox/users/{userId}/score-refresh',
  'POST /v1/sandbox/users/{userId}/alerts',
  'POST /v1/sandbox/users/{userId}/offers/{offerId}/convert',
  'GET /v1/sandbox/users/{userId}/verification/answers',
];

const key = (op: { method: string; path: string }) => `${op.method.toUpperCase()} ${op.path}`;
const find = (endpoint: string) => ALL_OPERATIONS.find((op) => key(op) === endpoint);

describe('operations', () => {
  it.each(SPEC_ENDPOINTS)('%s is defined', (endpoint) => {
    expect(find(endpoint)).toBeDefined();
  });

  it('has unique operationIds and unique method+path pairs', () => {
    expect(new Set(ALL_OPERATIONS.map((op) => op.operationId)).size).toBe(ALL_OPERATIONS.length);
    expect(new Set(ALL_OPERATIONS.map(key)).size).toBe(ALL_OPERATIONS.length);
  });

  it('opens sandbox helpers to admin only and marks them sandbox-only', () => {
    const sandbox = ALL_OPERATIONS.filter((op) => op.path.startsWith('/v1/sandbox/'));
    expect(sandbox).toHaveLength(10);
    for (const op of sandbox) {
      expect(op.sandboxOnly).toBe(true);
      expect(op.auth).toEqual({ kind: 'bearer', scope: 'admin' });
    }
  });

  it('uses the scopes of DECISIONS', () => {
    const scope = (endpoint: string) => {
      const auth = find(endpoint)?.auth;
      return auth?.kind === 'bearer' ? auth.scope : undefined;
    };
    expect(scope('GET /v1/users/{userId}/credit-score')).toBe('read');
    expect(scope('GET /v1/users/{userId}/alerts')).toBe('read');
    expect(scope('PATCH /v1/users/{userId}/alerts/{alertId}')).toBe('write');
    expect(scope('POST /v1/users/{userId}/verification/answers')).toBe('write');
    expect(scope('POST /v1/users/{userId}/offers/{offerId}/click')).toBe('offers');
    expect(scope('GET /v1/offers')).toBe('offers');
    expect(scope('DELETE /v1/webhooks/{webhookId}')).toBe('webhooks');
  });

  it('answers 201 on creating POSTs and 204 without data on webhook delete', () => {
    expect(find('POST /v1/webhooks')?.success.status).toBe(201);
    expect(find('POST /v1/users/{userId}/offers/{offerId}/click')?.success.status).toBe(201);
    const del = find('DELETE /v1/webhooks/{webhookId}');
    expect(del?.success.status).toBe(204);
    expect(del?.success.data).toBeUndefined();
  });

  it('builds an OpenAPI document with every path and one webhook per event type', () => {
    const doc = buildOpenApiDocument();
    for (const endpoint of SPEC_ENDPOINTS) {
      const [method, path] = endpoint.split(' ') as [string, string];
      expect(doc.paths?.[path]?.[method.toLowerCase() as 'get'], endpoint).toBeDefined();
    }
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
  });
});

describe('ratingForScore', () => {
  it.each([
    [300, 'very_poor'],
    [499, 'very_poor'],
    [500, 'poor'],
    [600, 'poor'],
    [601, 'fair'],
    [660, 'fair'],
    [661, 'good'],
    [780, 'good'],
    [781, 'excellent'],
    [850, 'excellent'],
  ] as const)('%i → %s', (score, rating) => {
    expect(ratingForScore(score)).toBe(rating);
  });

  it.each([299, 851, 700.5, Number.NaN])('rejects %s', (score) => {
    expect(() => ratingForScore(score)).toThrow(RangeError);
  });
});

const who = { userId: 'usr_8fQ2kZ1mW4xL9pR3', externalUserId: 'cust-001234' };
const at = '2026-01-15T10:30:00.000Z';
const alertEmail = { ...who, emailId: 'eml_3Kd8sW2nQ7xV5bT1', mode: 'each', alertIds: ['alt_9Tq1wE4rY6uI2oP8'], alertCount: 1 };
const SAMPLE_DATA = {
  'user.enrolled': { ...who, email: 'jane.doe@example.com', status: 'pending_verification' },
  'user.verified': { ...who, verifiedAt: at },
  'user.deleted': { ...who, deletedAt: at },
  'score.updated': { ...who, score: 712, previousScore: 698, change: 14, scoreDate: '2026-01-15' },
  'score.changed': { ...who, score: 712, previousScore: 698, change: 14, direction: 'up', scoreDate: '2026-01-15' },
  'alert.created': {
    ...who,
    alert: { alertId: 'alt_9Tq1wE4rY6uI2oP8', type: 'score_change', title: 'Up 14', message: 'm', severity: 'info' },
  },
  'alert.email.sent': { ...alertEmail, attempts: 1, sentAt: at },
  'alert.email.suppressed': { ...alertEmail, reason: 'consent_withdrawn' },
  'alert.email.failed': { ...alertEmail, attempts: 6, lastError: 'ECONNECTION' },
  'offer.clicked': {
    ...who,
    offerId: 'off_cc7BlueCash01',
    offerType: 'credit_card',
    provider: 'Maple Bank',
    clickId: 'clk_3nV8cQ2mZ7aB1xK4',
    offerVersion: 2,
  },
  'offer.converted': {
    ...who,
    offerId: 'off_cc7BlueCash01',
    offerType: 'loan',
    provider: 'Maple Bank',
    clickId: 'clk_3nV8cQ2mZ7aB1xK4',
    offerVersion: 2,
    stage: 'funded',
    amount: 18500,
    convertedAt: at,
  },
  'sandbox.clock.ready': { clockId: 'clk_7Rt2mQ9xK4vB1nL6', frozenTime: at, pausedUsers: [] },
  'consent.withdrawn': { ...who, consentId: 'cns_4Rt7yU1iO3pA5sD8', withdrawnAt: at },
} as const;

describe('event envelopes', () => {
  const envelope = (type: string, data: unknown) => ({ id: 'evt_7Yu9iO1pA3sD5fG7', type, createdAt: at, data });

  it('has a data schema for each of the 13 event types', () => {
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual(Object.keys(SAMPLE_DATA).sort());
  });

  it.each(Object.entries(SAMPLE_DATA))('parses %s', (type, data) => {
    const parsed = ZEventEnvelope.parse(envelope(type, data));
    expect(parsed.type).toBe(type);
    expect(parsed.data).toEqual(data);
  });

  it('accepts a first score with previousScore null', () => {
    const data = { ...SAMPLE_DATA['score.updated'], previousScore: null, change: 0 };
    expect(ZEventEnvelope.safeParse(envelope('score.updated', data)).success).toBe(true);
  });

  it('rejects data of another type, an unknown type and a bad id', () => {
    expect(ZEventEnvelope.safeParse(envelope('user.deleted', SAMPLE_DATA['user.verified'])).success).toBe(false);
    expect(ZEventEnvelope.safeParse(envelope('score.changed', SAMPLE_DATA['score.updated'])).success).toBe(false);
    expect(ZEventEnvelope.safeParse(envelope('user.updated', SAMPLE_DATA['user.verified'])).success).toBe(false);
    const badId = { ...envelope('user.deleted', SAMPLE_DATA['user.deleted']), id: 'event_1' };
    expect(ZEventEnvelope.safeParse(badId).success).toBe(false);
  });
});

const issuePaths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('webhook inputs', () => {
  const valid = { url: 'https://hooks.example.com/credit', events: ['score.changed'], secret: 'a'.repeat(16) };

  it('accepts a valid subscription', () => {
    expect(ZCreateWebhookInput.safeParse(valid).success).toBe(true);
  });

  it('rejects an http:// URL to anything but a loopback receiver, with the https message', () => {
    const result = ZCreateWebhookInput.safeParse({ ...valid, url: 'http://hooks.example.com/credit' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['url'],
        message:
          'must be an https:// URL (plain http:// is accepted only for a loopback receiver such as http://localhost:4242, in the sandbox)',
      }),
    ]);
  });

  it('lets an http:// loopback receiver through (the server accepts it in the sandbox only)', () => {
    for (const url of [
      'http://localhost:4242/hooks',
      'http://127.0.0.1/x',
      'http://127.9.0.1/x',
      'http://[::1]:8080/',
      'http://app.localhost/',
    ]) {
      expect(ZCreateWebhookInput.safeParse({ ...valid, url }).success, url).toBe(true);
    }
    for (const url of ['http://localhost.example.com/', 'http://128.0.0.1/', 'http://[::2]/', 'http://10.0.0.1/']) {
      expect(ZCreateWebhookInput.safeParse({ ...valid, url }).success, url).toBe(false);
    }
  });

  it('rejects a 15-character secret', () => {
    expect(issuePaths(ZCreateWebhookInput.safeParse({ ...valid, secret: 'a'.repeat(15) }))).toEqual(['secret']);
  });

  it('rejects no events, repeated events, unknown events and unknown fields', () => {
    expect(issuePaths(ZCreateWebhookInput.safeParse({ ...valid, events: [] }))).toEqual(['events']);
    expect(issuePaths(ZCreateWebhookInput.safeParse({ ...valid, events: ['score.changed', 'score.changed'] }))).toEqual([
      'events',
    ]);
    expect(ZCreateWebhookInput.safeParse({ ...valid, events: ['score.deleted'] }).success).toBe(false);
    expect(ZCreateWebhookInput.safeParse({ ...valid, active: true }).success).toBe(false);
  });

  it('requires at least one field on update and refuses status failed', () => {
    expect(ZUpdateWebhookInput.safeParse({}).success).toBe(false);
    expect(ZUpdateWebhookInput.safeParse({ status: 'failed' }).success).toBe(false);
    expect(ZUpdateWebhookInput.safeParse({ status: 'disabled' }).success).toBe(true);
  });
});

describe('list queries', () => {
  it('defaults history to 12 months and 25 items', () => {
    expect(ZCreditHistoryQuery.parse({})).toEqual({ months: 12, limit: 25 });
    expect(ZCreditHistoryQuery.parse({ months: '84', limit: '100' })).toEqual({ months: 84, limit: 100 });
  });

  it.each([
    [{ months: '0' }, 'months'],
    [{ months: '85' }, 'months'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ months: '1.5' }, 'months'],
  ])('rejects history query %o', (query, field) => {
    expect(issuePaths(ZCreditHistoryQuery.safeParse(query))).toEqual([field]);
  });

  it.each([ZListUserOffersQuery, ZListOffersCatalogQuery])('offers query rejects type=boat and status=maybe', (schema) => {
    expect(issuePaths(schema.safeParse({ type: 'boat' }))).toEqual(['type']);
    expect(issuePaths(schema.safeParse({ status: 'maybe' }))).toEqual(['status']);
    expect(schema.parse({ type: 'mortgage' })).toEqual({ type: 'mortgage', status: 'active', limit: 25 });
  });
});
