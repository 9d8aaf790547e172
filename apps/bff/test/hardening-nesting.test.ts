import { ALL_OPERATIONS, MAX_NESTING_DEPTH } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/**
 * Bodies nested deeper than MAX_NESTING_DEPTH are refused as `400 VALIDATION_ERROR` naming the body, before any
 * recursive walk of them. Before the bound, 20,000 bytes of `[[[[…` overflowed the stack in the string policy's walk
 * (RangeError) and answered 500.
 */
let app: TestApp;
let token: string;
let userId: string;
let webhookId: string;

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
  userId = await enrolUser(app, token);
  const webhook = await app.request('POST', '/v1/webhooks', {
    token,
    body: { url: 'https://127.0.0.1/hook', events: ['user.verified'], secret: 'a-secret-of-16-chars' },
  });
  expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
  webhookId = webhook.body.data.webhookId;
});
afterAll(() => app.close());

const routes = (): [string, string][] => [
  ['POST', '/v1/users/enroll'],
  ['POST', '/v1/users/enroll/batch'],
  ['POST', `/v1/users/${userId}/verification/answers`],
  ['PATCH', `/v1/webhooks/${webhookId}`],
];

const send = (method: string, path: string, rawBody: string) =>
  app.request(method, path, { token, rawBody, headers: { 'content-type': 'application/json', 'idempotency-key': path } });

/** Idempotent operations without a body: a body sent to them is refused, with or without an Idempotency-Key. */
const bodylessRoutes = (): [string, string][] => [
  ['POST', `/v1/users/${userId}/consent/withdraw`],
  ['POST', `/v1/users/${userId}/credit-score/refresh`],
  ['POST', `/v1/sandbox/users/${userId}/offers/off_missing00000000/convert`],
  ['POST', '/v1/webhooks/wh_2Xc4vB6nM8qW1eR3/deliveries/del_4Hj6kL8zX0cV2bN4/retry'],
];

describe(`bodies nested deeper than ${MAX_NESTING_DEPTH} levels`, () => {
  it('sent to an idempotent operation that takes no body, are refused as any body is there: never a 500', async () => {
    // The contract's list, so an operation added later is not missed here.
    const bodyless = ALL_OPERATIONS.filter((op) => op.idempotent && !op.request.body).map((op) => op.operationId);
    expect(bodyless.sort()).toEqual(['refreshCreditScore', 'retryWebhookDelivery', 'sandboxConvertOffer', 'withdrawConsent']);
    const noParameters = 'this operation takes no parameters: send no body, or {}';
    for (const [method, path] of bodylessRoutes()) {
      // The offer and the subscription named here do not exist: their 404 comes before any body check.
      const hidden = path.includes('off_missing') || path.includes('/v1/webhooks/');
      for (const [raw, details] of [
        [arrays(10_000), [{ field: 'body', message: noParameters }]],
        ['{"reason":"moving"}', [{ field: 'reason', message: `is not a parameter: ${noParameters}` }]],
      ] as const) {
        const res = await send(method, `${path}`, raw);
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(hidden ? 404 : 400);
        if (!hidden) expect(res.body.error.details).toEqual(details);
      }
    }
  });

  it('a key first used without a body is never replayed to the same key with one', async () => {
    const [method, path] = bodylessRoutes()[0] as [string, string];
    const key = { 'idempotency-key': `${path}-once` };
    const first = await app.request(method, path, { token, headers: key });
    expect(first.status).toBeLessThan(500);
    const withBody = await app.request(method, path, { token, headers: key, body: { reason: 'other' } });
    // Another request under a key already used: Stripe's conflict, never the first one's answer.
    expect(withBody.status).toBe(409);
    expect(withBody.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(withBody.headers.get('idempotent-replayed')).toBeNull();
  });

  it('20,000 bytes of [[[[…]]]] or {"a":{"a":…}} are a 400 naming the body on every route that reads one', async () => {
    for (const [method, path] of routes()) {
      for (const raw of [arrays(10_000), objects(4_000)]) {
        const res = await send(method, path, raw);
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.details).toEqual([
          { field: 'body', message: `must not nest arrays and objects more than ${MAX_NESTING_DEPTH} levels deep` },
        ]);
      }
    }
  });

  it(`takes ${MAX_NESTING_DEPTH} levels, and refuses ${MAX_NESTING_DEPTH + 1}`, async () => {
    const [method, path] = routes()[0] as [string, string];
    const deepest = await send(method, path, arrays(MAX_NESTING_DEPTH));
    expect(deepest.status).toBe(400);
    expect(deepest.body.error.details[0].message).not.toMatch(/levels deep/);
    const tooDeep = await send(method, path, arrays(MAX_NESTING_DEPTH + 1));
    expect(tooDeep.body.error.details[0].message).toMatch(/levels deep/);
  });
});
