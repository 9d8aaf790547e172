import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startDispatcher } from '../../../apps/bff/src/modules/webhooks/dispatcher.ts';
import { startTestApp, type TestApp } from '../../../apps/bff/test/helpers/harness.ts';
import { type Receiver, startReceiver } from '../../../apps/bff/test/helpers/webhook-receiver.ts';
import { activeCustomerIds } from '../src/all-users.ts';
import { createCreditClient } from '../src/credit-client.ts';
import { type Customer, enrolCustomer } from '../src/enrol-customer.ts';
import { describeReport } from '../src/read-report.ts';
import { describeScore } from '../src/read-score.ts';
import { ScoreWidget } from '../src/score-widget.tsx';
import { sdkTour } from '../src/sdk-tour.ts';
import { payDownFullestCard } from '../src/simulate-paydown.ts';
import { subscribeToWebhooks } from '../src/subscribe-webhooks.ts';
import { userTokenFor } from '../src/user-token-route.ts';
import { verifyInSandbox } from '../src/verify-in-sandbox.ts';
import { handleCreditWebhook } from '../src/webhook-handler.ts';
import { CreditPanel } from '../src/widget-with-events.tsx';

/** The samples docs/ shows, run as a partner would run them, against a real instance of the API. */
let app: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
let env: { CREDIT_API_URL: string; CREDIT_CLIENT_ID: string; CREDIT_CLIENT_SECRET: string };

const customer: Customer = {
  id: 'cust-docs-1',
  email: 'jane@example.com',
  firstName: 'Jane',
  lastName: 'Doe',
  ssnLast4: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
};

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile } });
  dispatcher = startDispatcher(app.ctx, { poll: false });
  const client = await app.createClient();
  env = { CREDIT_API_URL: app.url, CREDIT_CLIENT_ID: client.id, CREDIT_CLIENT_SECRET: client.secret };
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
  await receiver.close();
});

describe('docs/quickstart.md, step by step', () => {
  it('enrols a customer, verifies them in the sandbox, reads their score and mints the widget’s user token', async () => {
    const credit = createCreditClient(env);
    const userId = await enrolCustomer(credit, customer);
    expect(userId).toMatch(/^usr_/);
    // Enrolling the same customer again finds them instead of failing.
    expect(await enrolCustomer(credit, customer)).toBe(userId);
    expect(await verifyInSandbox(credit, userId)).toBe(true);
    expect(await describeScore(credit, userId)).toMatch(
      /^\d{3} \((poor|fair|good|very_good|excellent)\), (stable|(up|down) \d+ points) over 3 months$/,
    );
    expect(await activeCustomerIds(credit)).toEqual([customer.id]);

    const { userToken } = await userTokenFor(credit, customer);
    expect(userToken).toMatch(/^ut_sbx_/);
    // The token is the customer's: it reads their own record and nobody else's.
    const me = await app.request('GET', '/v1/me', { token: userToken });
    expect(me.body.data.userId).toBe(userId);
  });

  it('receives a real signed delivery and reads it with the webhook sample', async () => {
    const credit = createCreditClient(env);
    // You choose the signing secret and keep it; we store it encrypted and sign every delivery with it.
    const secret = 'whsec_docs_sample_5f2b9c1e8a7d4036b1e2';
    expect(await subscribeToWebhooks(credit, receiver.url, secret)).toMatch(/^wh_/);
    const [user] = (await credit.call('listUsers', { query: { externalUserId: customer.id } })).data;
    const current = await credit.call('getCreditScore', { params: { userId: user?.userId ?? '' } });
    await credit.call('sandboxRefreshScore', {
      params: { userId: user?.userId ?? '' },
      body: { score: current.score > 700 ? current.score - 40 : current.score + 40 },
    });
    await dispatcher.runOnce();
    const handled = receiver.received.map((delivery) =>
      handleCreditWebhook(delivery.raw, delivery.headers['x-service-signature'] as string, secret),
    );
    expect(handled).toContainEqual(expect.stringMatching(/^score of cust-docs-1 went (up|down) to \d{3}$/));
    expect(handled).toContainEqual(expect.stringMatching(/^alert for cust-docs-1: /));
    expect(() => handleCreditWebhook(receiver.received[0]?.raw ?? '', 't=1,v1=00', secret)).toThrow();
  });

  it('runs the SDK tour of docs/partner/sdk.md', async () => {
    const credit = createCreditClient(env);
    const [user] = (await credit.call('listUsers', { query: { externalUserId: customer.id } })).data;
    const tour = await sdkTour(
      { baseUrl: env.CREDIT_API_URL, clientId: env.CREDIT_CLIENT_ID, clientSecret: env.CREDIT_CLIENT_SECRET },
      user?.userId ?? '',
    );
    expect(tour.score).toBeGreaterThanOrEqual(300);
    expect(tour.firstPage).toBe(1);
    expect(tour.everyone).toEqual([user?.userId]);
    expect(tour.userToken).toMatch(/^ut_sbx_/);
    expect(tour.requestId).toMatch(/^req_/);
  });

  it('reads the report and simulates a pay-down as docs/partner/credit-report.md and simulator.md show', async () => {
    const credit = createCreditClient(env);
    const [user] = (await credit.call('listUsers', { query: { externalUserId: customer.id } })).data;
    const userId = user?.userId ?? '';
    expect(await describeReport(credit, userId)).toMatch(
      /^\d+ open accounts, [\d.]+% of \$[\d,]+ in card credit used, \d+ late payments in 24 months$/,
    );
    const paid = await payDownFullestCard(credit, userId);
    if (!paid) throw new Error('the docs customer has a card with a balance');
    expect(paid.headline).toMatch(/^Paying \$[\d,]+ off your .+ card: \d{3} → \d{3} \(\+\d+\)$/);
    expect(paid.disclaimer).toContain('estimate');
  });

  it('renders the full-props React sample of docs/partner/react.md on a server', () => {
    const html = renderToString(<CreditPanel apiUrl={app.url} onClose={() => {}} />);
    expect(html).toContain('See my offers');
    expect(html).toContain('min-height:800px');
  });

  it('renders the React sample on a server: the container with its height held, no frame until the browser', () => {
    const html = renderToString(<ScoreWidget apiUrl={app.url} />);
    expect(html).toContain('min-height');
    expect(html).not.toContain('<iframe');
  });
});
