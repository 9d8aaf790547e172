import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCreditClient } from '../../../docs/samples/src/credit-client.ts';
import { enrolCustomer } from '../../../docs/samples/src/enrol-customer.ts';
import { subscribeToWebhooks } from '../../../docs/samples/src/subscribe-webhooks.ts';
import { verifyInSandbox } from '../../../docs/samples/src/verify-in-sandbox.ts';
import { handleCreditWebhook } from '../../../docs/samples/src/webhook-handler.ts';
import { loadConfig } from '../src/config.ts';
import { Deliverer } from '../src/modules/webhooks/deliver.ts';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { productionEnv, startTestApp, type TestApp, testConfig } from './helpers/harness.ts';
import { type PlainReceiver, startPlainReceiver } from './helpers/http-receiver.ts';
import { REPO_ROOT } from './helpers/processes.ts';

/**
 * Issue 23, "the first webhook": a partner's receiver on their own machine is plain `http://localhost`. The sandbox
 * delivers to it (no certificate, no WEBHOOK_CA_FILE, no restart); production stays https-only.
 */
let sandbox: TestApp;
let production: TestApp;
/** A hosted sandbox shared by outside partners: its operator turned loopback receivers off. */
let hosted: TestApp;
let receiver: PlainReceiver;
let dispatcher: Dispatcher;

const SECRET = 'whsec_loopback_5f2b9c1e8a7d4036';

beforeAll(async () => {
  receiver = await startPlainReceiver();
  sandbox = await startTestApp();
  production = await startTestApp({ config: productionEnv() });
  hosted = await startTestApp({ config: { WEBHOOK_ALLOW_LOOPBACK_HTTP: 'false' } });
  dispatcher = startDispatcher(sandbox.ctx, { poll: false });
});
afterAll(async () => {
  await dispatcher.stop();
  await sandbox.close();
  await production.close();
  await hosted.close();
  await receiver.close();
});

describe('a loopback http:// receiver', () => {
  it('gets the quickstart’s score.changed webhook in the sandbox, signed, and the sample handler reads it', async () => {
    const client = await sandbox.createClient();
    const credit = createCreditClient({
      CREDIT_API_URL: sandbox.url,
      CREDIT_CLIENT_ID: client.id,
      CREDIT_CLIENT_SECRET: client.secret,
    });
    const url = `${receiver.origin}/credit-webhooks`;
    const webhookId = await subscribeToWebhooks(credit, url, SECRET);
    expect((await credit.call('getWebhook', { params: { webhookId } })).url).toBe(url);

    const customer = {
      id: 'cust-loopback-1',
      email: 'lou@example.com',
      firstName: 'Lou',
      lastName: 'Back',
      ssnLast4: '1234',
      dateOfBirth: '1985-04-12',
      address: { street: '1 Loop Rd', city: 'Springfield', state: 'IL' as const, zipCode: '62701' },
    };
    const userId = await enrolCustomer(credit, customer);
    expect(await verifyInSandbox(credit, userId)).toBe(true);
    const current = await credit.call('getCreditScore', { params: { userId } });
    await credit.call('sandboxRefreshScore', {
      params: { userId },
      body: { score: current.score > 700 ? current.score - 40 : current.score + 40 },
    });
    await dispatcher.runOnce();

    const handled = receiver.received
      .filter((d) => d.path === '/credit-webhooks')
      .map((d) => handleCreditWebhook(d.raw, d.headers['x-service-signature'] as string, SECRET));
    expect(handled).toContainEqual(expect.stringMatching(/^score of cust-loopback-1 went (up|down) to \d{3}$/));
    const logs = await credit.call('listWebhookDeliveries', { params: { webhookId } });
    expect(logs.data.length).toBeGreaterThan(0);
    for (const entry of logs.data) {
      expect(entry).toMatchObject({ status: 'success', statusCode: 200 });
      expect(entry).not.toHaveProperty('error');
    }
  });

  it.each(['http://127.0.0.1:{port}/t', 'http://[::1]:{port}/t', 'http://localhost:{port}/t'])(
    'accepts %s in the sandbox and a test delivery reaches it',
    async (template) => {
      const token = await sandbox.token(await sandbox.createClient());
      const url = template.replace('{port}', String(receiver.port));
      const created = await sandbox.request('POST', '/v1/webhooks', {
        token,
        body: { url, events: ['score.changed'], secret: SECRET },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const test = await sandbox.request('POST', `/v1/webhooks/${created.body.data.webhookId}/test`, {
        token,
        body: { eventType: 'score.changed' },
      });
      // [::1] is refused when the machine has no IPv6 loopback; then the log says so instead of a status.
      if (template.includes('[::1]') && test.body.data.statusCode === 0) {
        expect(test.body.data.error).toBe('connection refused');
        return;
      }
      expect(test.body.data, JSON.stringify(test.body)).toMatchObject({ status: 'success', statusCode: 200 });
    },
  );

  it('is refused in the sandbox when the host is not a loopback one', async () => {
    const token = await sandbox.token(await sandbox.createClient());
    const res = await sandbox.request('POST', '/v1/webhooks', {
      token,
      body: { url: 'http://hooks.example.com/credit', events: ['score.changed'], secret: SECRET },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      {
        field: 'url',
        message:
          'must be an https:// URL (plain http:// is accepted only for a loopback receiver such as http://localhost:4242, in the sandbox)',
      },
    ]);
  });

  it('is refused in production with a 400 that says why, on create and on change, and nothing is stored', async () => {
    const client = await production.createClient();
    const token = await production.token(client);
    const count = async () =>
      Number((await production.db.query<{ n: number }>('select count(*)::int as n from webhooks')).rows[0]?.n);
    const before = await count();
    const message =
      'must be an https:// URL: production delivers only over TLS (http://localhost receivers work in the sandbox only)';
    for (const url of [`${receiver.origin}/credit-webhooks`, `http://127.0.0.1:${receiver.port}/x`]) {
      const res = await production.request('POST', '/v1/webhooks', {
        token,
        body: { url, events: ['score.changed'], secret: SECRET },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'url', message }] });
    }
    expect(await count()).toBe(before);
    // A subscription made with an https URL cannot be switched to http:// either.
    const created = await production.request('POST', '/v1/webhooks', {
      token,
      body: { url: 'https://1.1.1.1/hooks', events: ['score.changed'], secret: SECRET },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const changed = await production.request('PATCH', `/v1/webhooks/${created.body.data.webhookId}`, {
      token,
      body: { url: `${receiver.origin}/credit-webhooks` },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details).toEqual([{ field: 'url', message }]);
  });

  it('is never sent to by a production deliverer, even from a subscription stored in the sandbox', async () => {
    const deliverer = new Deliverer(testConfig(productionEnv()));
    const before = receiver.received.length;
    try {
      const outcome = await deliverer.post(`${receiver.origin}/old`, '{}', { 'content-type': 'application/json' });
      expect(outcome).toMatchObject({ ok: false, statusCode: 0, error: 'https required in production' });
    } finally {
      await deliverer.close();
    }
    expect(receiver.received.length).toBe(before);
  });
});

describe('a sandbox without loopback delivery (the default; hosted for outside partners)', () => {
  const message =
    'must not be a loopback receiver: this sandbox does not deliver to http://localhost or other addresses of its own host; use a public https:// URL (for a receiver on your machine, a tunnel to it)';
  const count = async () => Number((await hosted.db.query<{ n: number }>('select count(*)::int as n from webhooks')).rows[0]?.n);

  it('is off unless turned on, as `pnpm start` and this suite do for receivers on the developer’s machine', () => {
    expect(loadConfig({}).WEBHOOK_ALLOW_LOOPBACK_HTTP).toBe(false);
    expect(sandbox.ctx.config.WEBHOOK_ALLOW_LOOPBACK_HTTP).toBe(true);
    expect(testConfig().WEBHOOK_ALLOW_LOOPBACK_HTTP).toBe(true);
    expect(hosted.ctx.config.WEBHOOK_ALLOW_LOOPBACK_HTTP).toBe(false);
    expect(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts.start).toContain(
      // The shell's default-value expansion, as the script holds it.
      `WEBHOOK_ALLOW_LOOPBACK_HTTP=\${WEBHOOK_ALLOW_LOOPBACK_HTTP:-true}`,
    );
  });

  it('refuses loopback receivers on create and on change with a 400 that says why, and stores nothing', async () => {
    const token = await hosted.token(await hosted.createClient());
    const before = await count();
    for (const url of [
      `${receiver.origin}/credit-webhooks`,
      `http://127.0.0.1:${receiver.port}/x`,
      `http://127.8.9.10:${receiver.port}/x`,
      `http://[::1]:${receiver.port}/x`,
      `https://127.0.0.1:${receiver.port}/x`,
    ]) {
      const res = await hosted.request('POST', '/v1/webhooks', {
        token,
        body: { url, events: ['score.changed'], secret: SECRET },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'url', message }] });
    }
    expect(await count()).toBe(before);
    const created = await hosted.request('POST', '/v1/webhooks', {
      token,
      body: { url: 'https://1.1.1.1/hooks', events: ['score.changed'], secret: SECRET },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const changed = await hosted.request('PATCH', `/v1/webhooks/${created.body.data.webhookId}`, {
      token,
      body: { url: `http://127.0.0.1:${receiver.port}/x` },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details).toEqual([{ field: 'url', message }]);
    const kept = await hosted.request('GET', `/v1/webhooks/${created.body.data.webhookId}`, { token });
    expect(kept.body.data.url).toBe('https://1.1.1.1/hooks');
  });

  it('never delivers to a loopback receiver stored before the setting was turned off, and the log reveals no port state', async () => {
    const deliverer = new Deliverer(testConfig({ WEBHOOK_ALLOW_LOOPBACK_HTTP: 'false' }));
    const before = receiver.received.length;
    try {
      for (const url of [
        `${receiver.origin}/old`,
        `http://127.0.0.1:${receiver.port}/old`,
        // A closed port answers the same as the open one: the log cannot be used to scan our host.
        'http://127.0.0.1:1/old',
      ]) {
        const outcome = await deliverer.post(url, '{}', { 'content-type': 'application/json' });
        expect(outcome, url).toMatchObject({ ok: false, statusCode: 0, error: 'address not allowed' });
      }
    } finally {
      await deliverer.close();
    }
    expect(receiver.received.length).toBe(before);
  });
});
