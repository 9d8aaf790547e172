import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWorker } from '../../../apps/bff/src/worker.ts';
import { startTestApp, type TestApp } from '../../../apps/bff/test/helpers/harness.ts';
import { type Receiver, startReceiver, waitFor } from '../../../apps/bff/test/helpers/webhook-receiver.ts';
import { aYearOnAClock } from '../src/clock-a-year.ts';
import { createCreditClient } from '../src/credit-client.ts';

/**
 * docs/partner/testing-with-clocks.md's sample against a real instance that runs the worker role too (monitoring, clock
 * advances and webhook delivery), as `pnpm start` does: nothing in the test runs a period or an advance by hand.
 */
const EVERY_ALERT_TYPE = [
  'account_closed',
  'address_change',
  'fraud_alert',
  'high_utilization',
  'late_payment',
  'new_account',
  'new_inquiry',
  'score_change',
];

let app: TestApp;
let receiver: Receiver;
let worker: { stop(): Promise<void> };

beforeAll(async () => {
  receiver = await startReceiver();
  // The product's calendar months (no fixed interval), as a partner's sandbox runs them.
  app = await startTestApp({
    config: { WEBHOOK_CA_FILE: receiver.caFile, MONITORING_POLL_INTERVAL_MS: '100', MONITORING_INTERVAL: '' },
  });
  worker = startWorker(app.ctx);
});
afterAll(async () => {
  await worker.stop();
  await app.close();
  await receiver.close();
});

describe('docs/partner/testing-with-clocks.md', () => {
  it('advances a 1001 customer a year: twelve more history points, every alert type, sandbox.clock.ready', async () => {
    const client = await app.createClient();
    const credit = createCreditClient({
      CREDIT_API_URL: app.url,
      CREDIT_CLIENT_ID: client.id,
      CREDIT_CLIENT_SECRET: client.secret,
    });
    await credit.call('createWebhook', {
      body: { url: `${receiver.url}/clocks`, events: ['sandbox.clock.ready'], secret: 'whsec_docs_clock_sample_0123' },
    });
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});

    const year = await aYearOnAClock(credit);

    expect(year.newHistoryPoints).toBe(12);
    expect(year.alertTypes).toEqual(EVERY_ALERT_TYPE);
    expect(log).toHaveBeenCalledWith(`${year.frozenTime}: 12 new history points; alerts: ${EVERY_ALERT_TYPE.join(', ')}`);
    log.mockRestore();
    // The clock was a year ahead of real time when it was ready; the webhook said so.
    expect(Date.parse(year.frozenTime) - Date.now()).toBeGreaterThan(360 * 86_400_000);
    const ready = await waitFor(() => {
      const found = receiver.received.find((d) => d.body.type === 'sandbox.clock.ready');
      expect(found).toBeDefined();
      return found;
    }, 20_000);
    expect(ready?.body.data).toEqual({ clockId: year.clockId, frozenTime: year.frozenTime, pausedUsers: [] });
    // The sample deleted the clock, and its customer with it.
    expect((await app.request('GET', `/v1/sandbox/clocks/${year.clockId}`, { token: await app.token(client) })).status).toBe(404);
    expect((await app.request('GET', `/v1/users/${year.userId}`, { token: await app.token(client) })).status).toBe(404);
  }, 90_000);
});
