import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDispatcher } from '../../apps/bff/src/modules/webhooks/dispatcher.ts';
import { startTestApp } from '../../apps/bff/test/helpers/harness.ts';
import { type Receiver, startReceiver } from '../../apps/bff/test/helpers/webhook-receiver.ts';
import { sharedBrowser } from '../src/browser.ts';
import { assertBuilt } from '../src/built-files.ts';
import { runJourney } from '../src/screen-check.ts';
import { createPartner, type Partner, type TestApp } from '../src/servers.ts';
import { enrolUser, newExternalUserId } from '../src/users.ts';
import { keepForGuide } from './console-screenshots.ts';

/**
 * An outage in the console: a receiver that fails every delivery until the endpoint is marked failed, then an editor
 * re-activates it and recovers from the console, and the receiver gets every missed event exactly once. Its own API
 * (as the consent journey's): the API must trust the receiver's certificate, and the retries move the clock a day on.
 */
describe('a webhook outage, recovered from the bank’s console', () => {
  let browser: Browser;
  let app: TestApp;
  let partner: Partner;
  let receiver: Receiver;
  let dispatcher: ReturnType<typeof startDispatcher>;
  /** Event ids the receiver answered 200, once per receipt. */
  const acknowledged: string[] = [];
  let down = true;

  beforeAll(async () => {
    assertBuilt();
    receiver = await startReceiver();
    receiver.respond = (d) => {
      if (down) return 503;
      acknowledged.push(d.body.id);
      return 200;
    };
    [browser, app] = await Promise.all([sharedBrowser(), startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile } })]);
    partner = await createPartner(app, ['http://localhost:*']);
    dispatcher = startDispatcher(app.ctx, { poll: false });
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await browser?.close();
    await app?.close();
    await receiver?.close();
  });

  it('shows the endpoint failing with its log; re-activate and recover: each missed event arrives once', {
    timeout: 120_000,
  }, async () => {
    const sdk = app.sdk(partner.client);
    const { webhookId } = await sdk.call('createWebhook', {
      body: { url: `${receiver.url}/outage`, events: ['user.enrolled'], secret: 'whsec_console_outage_0123456789' },
    });
    for (let i = 0; i < 3; i++) await enrolUser(app, partner.accessToken, newExternalUserId('outage'));
    const missed = (await sdk.call('listEvents', { query: { type: 'user.enrolled', limit: 100 } })).data.map((e) => e.id);
    expect(missed).toHaveLength(3);

    // Every retry fails: the clock moves to each next attempt until none is due and the endpoint is marked failed.
    await dispatcher.runOnce();
    for (let step = 0; step < 50; step++) {
      const logs = await sdk.call('listWebhookDeliveries', { params: { webhookId }, query: { limit: 100 } });
      const due = logs.data.flatMap((e) => (e.nextAttemptAt ? [Date.parse(e.nextAttemptAt)] : [])).sort((a, b) => a - b);
      if (due[0] === undefined) break;
      if (due[0] > app.clock.now().getTime()) app.clock.set(new Date(due[0]));
      await dispatcher.runOnce();
    }
    expect((await sdk.call('getWebhook', { params: { webhookId } })).status).toBe('failed');
    expect(acknowledged).toEqual([]);
    down = false;

    const link = await sdk.call('createConsoleLink', {
      body: { staff: { id: 'emp-oncall', email: 'oncall@bank.example' }, role: 'editor' },
    });
    await runJourney(browser, 'desktop', 'console-webhook-outage', async ({ page, audit }) => {
      await page.goto(link.url);
      await page.getByRole('heading', { level: 1, name: 'Program' }).waitFor();
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
      const card = page.getByRole('article', { name: `${receiver.url}/outage`, exact: true });
      await card.getByText('Failed', { exact: true }).waitFor();
      await audit.check('console-webhook-failed');
      await keepForGuide(audit.screenshots, 'webhooks-failed');

      // The log says why, per attempt, filtered in the address.
      await card.getByRole('link', { name: 'Delivery log of this endpoint' }).click();
      await page.getByRole('table', { name: 'Delivery attempts, newest first' }).waitFor();
      expect(new URL(page.url()).searchParams.get('endpoint')).toBe(webhookId);
      await page.getByRole('combobox', { name: 'Outcome' }).selectOption('failed');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/status=failed/);
      await page
        .getByRole('cell', { name: /failed: http 503/i })
        .first()
        .waitFor();
      await audit.check('console-webhook-log');
      await keepForGuide(audit.screenshots, 'webhook-log');

      // Re-activate, then recover since before the outage: the missed events go out once each.
      await page.getByRole('link', { name: '← All endpoints' }).click();
      await card.getByRole('button', { name: 'Re-activate' }).click();
      await card.getByText('Healthy', { exact: true }).waitFor();
      await card.getByRole('button', { name: 'Recover missed events' }).click();
      await card.getByText(/3 missed events queued/).waitFor();
      await dispatcher.runOnce();
      await expect.poll(() => [...acknowledged].sort(), { timeout: 15_000 }).toEqual([...missed].sort());
      await audit.check('console-webhook-recovered');

      // A second recovery queues nothing already delivered.
      await card.getByRole('button', { name: 'Recover missed events' }).click();
      await card.getByText(/0 missed events queued/).waitFor();
      await dispatcher.runOnce();
      expect([...acknowledged].sort()).toEqual([...missed].sort());
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
