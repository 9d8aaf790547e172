import http from 'node:http';
import { FAST_RETRY_DELAYS_MS } from '@credit/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type Dispatcher, retrySchedules, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { enrollment, productionEnv, startTestApp, type TestApp } from './helpers/harness.ts';
import { closedPort } from './helpers/http-receiver.ts';
import { startSmtpReceiver } from './helpers/smtp-receiver.ts';
import { waitFor } from './helpers/webhook-receiver.ts';

/**
 * Issue 50, "outage rehearsal without the operator": a sandbox subscription asks for the fast schedule, its receiver
 * on the partner's machine goes down, and the failed status, the e-mail and the recovery all happen within about a
 * minute and a half of schedule, every event arriving exactly once in the end. Production refuses the fast schedule.
 */
const SECOND = 1000;

let app: TestApp;
let production: TestApp;
let dispatcher: Dispatcher;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  // A sandbox as `pnpm start` runs it: no WEBHOOK_RETRY_SCHEDULE, no CA file; loopback receivers allowed.
  app = await startTestApp({ config: { SMTP_URL: smtp.url } });
  production = await startTestApp({ config: productionEnv() });
  dispatcher = startDispatcher(app.ctx, { poll: false });
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
  await production.close();
  await smtp.close();
});

/** The partner's local receiver: verifies each delivery with the generated secret, acknowledges what verifies. */
const localReceiver = (port: number, secret: string) => {
  const acknowledged: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        const event = new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), headers) as { id: string };
        acknowledged.push(event.id);
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  return {
    acknowledged,
    start: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

interface LogEntry {
  eventId: string;
  attempt: number;
  status: string;
  error?: string;
  deliveredAt: string;
  nextAttemptAt: string | null;
}

describe('rehearsing an outage in the sandbox', () => {
  it('fast schedule: failed within 80 s, the e-mail, then re-activate and recover: every event exactly once', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const port = await closedPort();
    const created = await app.request('POST', '/v1/webhooks', {
      token,
      body: { url: `http://localhost:${port}/credit`, events: ['user.enrolled'], retrySchedule: 'fast' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.retrySchedule).toBe('fast');
    const webhookId = created.body.data.webhookId as string;
    const receiver = localReceiver(port, created.body.data.secret);
    const get = async () =>
      (await app.request('GET', `/v1/webhooks/${webhookId}`, { token: await app.currentToken(client) })).body.data;
    const logs = async (): Promise<LogEntry[]> =>
      (await app.request('GET', `/v1/webhooks/${webhookId}/logs?limit=100`, { token: await app.currentToken(client) })).body.data;
    const enrol = async () => {
      const res = await app.request('POST', '/v1/users/enroll', { token: await app.currentToken(client), body: enrollment() });
      expect(res.status).toBe(201);
      const { rows } = await app.db.query<{ id: string }>("select id from outbox_events where data->>'userId' = $1", [
        res.body.data.userId,
      ]);
      return rows[0]?.id as string;
    };

    // The receiver is down. Each retry comes due as the fast schedule says: 5 s, 10 s, 15 s, 20 s, 30 s.
    const outageBegan = app.clock.now();
    const first = await enrol();
    await dispatcher.runOnce();
    for (const delay of FAST_RETRY_DELAYS_MS) {
      const latest = (await logs())[0] as LogEntry;
      expect(latest).toMatchObject({ eventId: first, status: 'failed', error: 'connection refused' });
      expect(Date.parse(latest.nextAttemptAt as string) - Date.parse(latest.deliveredAt)).toBe(delay);
      app.clock.set(new Date(Date.parse(latest.nextAttemptAt as string)));
      await dispatcher.runOnce();
    }
    const failed = await get();
    expect(failed.status).toBe('failed');
    expect(app.clock.now().getTime() - outageBegan.getTime()).toBe(80 * SECOND);
    expect(failed.health).toMatchObject({
      consecutiveFailures: 6,
      lastFailureReason: 'connection refused',
      disabledReason: expect.stringMatching(/^failed after 6 attempts of delivery del_\w+: connection refused$/),
    });
    expect((await logs()).filter((e) => e.eventId === first).map((e) => e.attempt)).toEqual([6, 5, 4, 3, 2, 1]);

    // The e-mail to the contact address, on the worker's next pass.
    await dispatcher.runOnce();
    const mail = await waitFor(() => {
      const found = smtp.mails.find((m) => m.raw.includes(webhookId));
      if (!found) throw new Error('no notice yet');
      return found.raw.replace(/=\r?\n/g, '');
    });
    expect(mail).toContain('"failed"');
    expect(mail).toContain('connection refused');
    expect((await get()).health.failureNoticeSentAt).not.toBeNull();

    // An event while it is failed is not sent.
    const duringOutage = await enrol();
    await dispatcher.runOnce();

    // The receiver is back: re-activate, recover since the outage began, and every event arrives once.
    await receiver.start();
    try {
      const current = await app.currentToken(client);
      const active = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token: current, body: { status: 'active' } });
      expect(active.body.data).toMatchObject({ status: 'active', retrySchedule: 'fast', health: { disabledReason: null } });
      const recovered = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, {
        token: current,
        body: { since: outageBegan.toISOString() },
      });
      expect(recovered.body.data).toMatchObject({ queued: 2, status: 'active' });
      // (The receiver's library checks timestamps against its wall clock: the test clock is 80 s ahead, within its 5 min.)
      await dispatcher.runOnce();
      await dispatcher.runOnce();
      expect(receiver.acknowledged.sort()).toEqual([first, duringOutage].sort());
      const health = (await get()).health;
      expect(health).toMatchObject({ consecutiveFailures: 0, disabledAt: null, lastSuccessAt: app.clock.now().toISOString() });
      // Nothing more comes due: each event was delivered once.
      app.clock.advance(10 * 60 * SECOND);
      await dispatcher.runOnce();
      expect(receiver.acknowledged).toHaveLength(2);
    } finally {
      await receiver.stop();
    }
  });

  it('is chosen and changed per subscription; production answers 400 naming retrySchedule', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const created = await app.request('POST', '/v1/webhooks', {
      token,
      body: { url: 'https://8.8.8.8/credit', events: ['user.enrolled'], secret: 'whsec_rehearsal_0123456789' },
    });
    expect(created.body.data.retrySchedule).toBe('standard');
    const url = `/v1/webhooks/${created.body.data.webhookId}`;
    expect((await app.request('PATCH', url, { token, body: { retrySchedule: 'fast' } })).body.data.retrySchedule).toBe('fast');
    const bad = await app.request('PATCH', url, { token, body: { retrySchedule: 'faster' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('retrySchedule');

    const bank = await production.createClient();
    const prodToken = await production.token(bank);
    // A public address literal: production resolves and checks every host, and this one needs no DNS.
    const body = { url: 'https://8.8.8.8/credit', events: ['user.enrolled'], secret: 'whsec_rehearsal_0123456789' };
    const refused = await production.request('POST', '/v1/webhooks', {
      token: prodToken,
      body: { ...body, retrySchedule: 'fast' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      {
        field: 'retrySchedule',
        message: 'fast is for rehearsing an outage in the sandbox; production retries on the standard schedule',
      },
    ]);
    const standard = await production.request('POST', '/v1/webhooks', { token: prodToken, body });
    expect(standard.status).toBe(201);
    const patched = await production.request('PATCH', `/v1/webhooks/${standard.body.data.webhookId}`, {
      token: prodToken,
      body: { retrySchedule: 'fast' },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details[0].field).toBe('retrySchedule');
  });

  it('the operator’s WEBHOOK_RETRY_SCHEDULE stays the standard one and caps the fast one; production has no fast one', () => {
    expect(retrySchedules(loadConfig({}))).toEqual({
      standard: [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000],
      fast: [5_000, 10_000, 15_000, 20_000, 30_000],
    });
    expect(retrySchedules(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s,2s,3s,4s,30s' }))).toEqual({
      standard: [1_000, 2_000, 3_000, 4_000, 30_000],
      fast: [1_000, 2_000, 3_000, 4_000, 30_000],
    });
    const prod = retrySchedules({
      APP_ENV: 'production',
      WEBHOOK_RETRY_SCHEDULE: [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000],
    });
    expect(prod.fast).toEqual(prod.standard);
  });
});
