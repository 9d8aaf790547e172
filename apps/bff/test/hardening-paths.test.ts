import { ALL_OPERATIONS } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
let token: string;
let userId: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
  userId = await enrolActiveUser(app, token);
});
afterAll(() => app.close());

const VALID_PARAM: Record<string, () => string> = {
  userId: () => userId,
  offerId: () => 'off_cc7BlueCash01',
  alertId: () => 'alt_9Tq1wE4rY6uI2oP8',
  webhookId: () => 'wh_2Xc4vB6nM8qW1eR3',
  deliveryId: () => 'del_4Hj6kL8zX0cV2bN4',
  clickId: () => 'clk_3nV8cQ2mZ7aB1xK4',
  version: () => '1',
};

/** Every (operation, path parameter) pair: the parameter gets `raw`, the others a well-formed value. */
const withParam = (raw: string) =>
  ALL_OPERATIONS.flatMap((op) =>
    [...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
      label: `${op.method.toUpperCase()} ${op.path} {${name}}`,
      method: op.method.toUpperCase(),
      name: name as string,
      path: op.path.replace(/\{([^}]+)\}/g, (_, other: string) =>
        other === name ? raw : (VALID_PARAM[other] as () => string)(),
      ),
    })),
  );

describe('malformed percent-encoding in a path parameter', () => {
  it.each([...withParam('%E0%A4%A'), ...withParam('%ZZ')])(
    '$label → 400 naming the parameter',
    async ({ method, path, name }) => {
      // Before authentication, like an unknown route: the router cannot match a path it cannot decode.
      for (const options of [{}, { token }]) {
        const res = await app.request(method, path, {
          ...options,
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.details).toEqual([{ field: `path.${name}`, message: 'is not valid percent-encoding (UTF-8)' }]);
      }
    },
  );

  it('is an unknown route (404) where no route has a parameter', async () => {
    const res = await app.request('GET', '/v1/users/%ZZ/unknown', { token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('a trailing slash is another path', () => {
  it.each(['/v1/users/', '/v1/webhooks/', `/v1/users/{userId}/alerts/`])('GET %s → 404, not the list', async (template) => {
    const res = await app.request(
      'GET',
      template.replace('{userId}', () => userId),
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('ids: only the prefix is a rule', () => {
  it.each([
    ['GET', '/v1/users/usr_does_not_exist'],
    ['GET', '/v1/users/usr_x'],
    ['GET', `/v1/users/usr_${'é'.repeat(20)}`],
    ['DELETE', '/v1/users/usr_does-not-exist'],
    ['GET', '/v1/webhooks/wh_does_not_exist'],
    ['GET', '/v1/users/usr_nobody/credit-score'],
  ])('%s %s → 404 NOT_FOUND', async (method, path) => {
    const res = await app.request(method, path, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 404 for an offer and an alert id of the right prefix that match nothing', async () => {
    const click = await app.request('POST', `/v1/users/${userId}/offers/off_no_such_offer/click`, { token, body: {} });
    expect(click.status, JSON.stringify(click.body)).toBe(404);
    const alert = await app.request('PATCH', `/v1/users/${userId}/alerts/alt_no_such_alert`, {
      token,
      body: { status: 'read' },
    });
    expect(alert.status, JSON.stringify(alert.body)).toBe(404);
  });

  it('answers 400 for a wrong prefix, with a message stating the real rule', async () => {
    const res = await app.request('GET', '/v1/users/cust_123', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'path.userId', message: 'must start with usr_' }]);
    const webhook = await app.request('GET', '/v1/webhooks/usr_abc', { token });
    expect(webhook.body.error.details).toEqual([{ field: 'path.webhookId', message: 'must start with wh_' }]);
  });

  it('answers 404 for a long id of the right prefix too', async () => {
    const res = await app.request('GET', `/v1/users/usr_${'a'.repeat(3000)}`, { token });
    expect(res.status).toBe(404);
    const webhook = await app.request('PATCH', `/v1/webhooks/wh_${'A'.repeat(3000)}`, { token, body: { status: 'active' } });
    expect(webhook.status).toBe(404);
  });
});
