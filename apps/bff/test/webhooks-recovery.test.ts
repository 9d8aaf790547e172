import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { claimDueDeliveries, settleAttempts } from '../src/modules/webhooks/queue-repo.ts';
import { enrollment, type TestApp, type TestClient } from './helpers/harness.ts';
import { startSmtpReceiver } from './helpers/smtp-receiver.ts';
import { type ReceivedDelivery, type Receiver, waitFor } from './helpers/webhook-receiver.ts';
import { startWebhookWorld, type WebhookWorld } from './helpers/webhook-world.ts';

const SECRET = 'whsec_recovery_0123456789abcdef';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface LogEntry {
  deliveryId: string;
  eventId: string;
  attempt: number;
  status: string;
  statusCode: number;
  nextAttemptAt: string | null;
}

let app: TestApp;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let dispatcher: Dispatcher;
/** Per client: the status its receiver answers. */
const answers = new Map<string, number>();
/** Event ids the receiver answered 200 to, once per receipt. */
const acknowledged: string[] = [];

let world: WebhookWorld;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  world = await startWebhookWorld({ SMTP_URL: smtp.url });
  ({ app, receiver, dispatcher } = world);
});
afterAll(async () => {
  await world.close();
  await smtp.close();
});

/** A client whose receiver answers `status` (changeable), with a subscription to user.enrolled. */
const setup = async (status = 200) => {
  const client = await app.createClient();
  const token = await app.token(client);
  const res = await app.request('POST', '/v1/webhooks', {
    token,
    body: { url: `${receiver.url}/${client.id}`, events: ['user.enrolled'], secret: SECRET },
  });
  expect(res.status).toBe(201);
  const mine = () => receiver.received.filter((d) => d.body && eventsOf.get(d.body.id) === client.id);
  const answer = (code: number) => answers.set(client.id, code);
  answer(status);
  return { client, webhookId: res.body.data.webhookId as string, mine, answer };
};

/** Which client each event belongs to. */
const eventsOf = new Map<string, string>();

const enrol = async (client: TestClient) => {
  const token = await app.currentToken(client);
  const res = await app.request('POST', '/v1/users/enroll', { token, body: enrollment() });
  expect(res.status).toBe(201);
  const { rows } = await app.db.query<{ id: string }>("select id from outbox_events where data->>'userId' = $1", [
    res.body.data.userId,
  ]);
  const eventId = rows[0]?.id as string;
  eventsOf.set(eventId, client.id);
  return eventId;
};

const logsOf = async (client: TestClient, webhookId: string): Promise<LogEntry[]> => {
  const res = await app.request('GET', `/v1/webhooks/${webhookId}/logs?limit=100`, { token: await app.currentToken(client) });
  expect(res.status).toBe(200);
  return res.body.data;
};

/** Moves the injected clock to each next due attempt the logs announce and runs the worker, until none is due. */
const runUntilNothingDue = async (client: TestClient, webhookId: string) => {
  await dispatcher.runOnce();
  for (let step = 0; step < 50; step++) {
    const due = (await logsOf(client, webhookId))
      .map((e) => e.nextAttemptAt)
      .filter((at): at is string => at !== null)
      .map((at) => Date.parse(at))
      .sort((a, b) => a - b);
    const next = due[0];
    if (next === undefined) return;
    if (next > app.clock.now().getTime()) app.clock.set(new Date(next));
    await dispatcher.runOnce();
  }
  throw new Error('deliveries kept coming due');
};

const statusOf = async (client: TestClient, webhookId: string) =>
  (await app.request('GET', `/v1/webhooks/${webhookId}`, { token: await app.currentToken(client) })).body.data.status;

beforeAll(() => {
  receiver.respond = (d) => {
    const status = answers.get(eventsOf.get(d.body.id) ?? '') ?? 200;
    if (status === 200) acknowledged.push(d.body.id);
    return status;
  };
});

describe('recovering after an outage', () => {
  it('fails through the whole schedule, then re-enable and recover deliver every event, once per event id', async () => {
    const { client, webhookId, mine, answer } = await setup(500);
    const start = app.clock.now();
    const exhausted = await enrol(client);
    await dispatcher.runOnce();
    app.clock.advance(MINUTE);
    await dispatcher.runOnce();
    // A second event one minute behind: still waiting for its 6th attempt when the first one's last retry fails.
    const waiting = await enrol(client);
    await runUntilNothingDue(client, webhookId);
    expect(await statusOf(client, webhookId)).toBe('failed');

    let logs = await logsOf(client, webhookId);
    const attemptsOf = (eventId: string) => logs.filter((e) => e.eventId === eventId).map((e) => e.attempt);
    expect(attemptsOf(exhausted)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(attemptsOf(waiting)).toEqual([5, 4, 3, 2, 1]);
    // A failed subscription sends nothing, so no entry announces a next attempt.
    expect(logs.every((e) => e.nextAttemptAt === null)).toBe(true);

    // The notice says what the status says, and how to get the events back.
    await dispatcher.runOnce();
    const notice = await waitFor(() => {
      const found = smtp.mails.find((m) => m.raw.includes(webhookId));
      if (!found) throw new Error('no notice yet');
      return found;
    });
    // (quoted-printable: soft line breaks are `=` at a line's end)
    const mail = notice.raw.replace(/=\r?\n/g, '');
    expect(mail).toContain('"failed"');
    expect(mail).not.toMatch(/disabled after/);
    expect(mail).toContain(`/v1/webhooks/{webhookId}/recover`);

    // An event while the subscription is failed is not sent.
    const duringOutage = await enrol(client);
    await dispatcher.runOnce();
    expect(mine().some((d) => d.body.id === duringOutage)).toBe(false);

    answer(200);
    const token = await app.currentToken(client);
    expect((await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { status: 'active' } })).status).toBe(200);
    await dispatcher.runOnce();
    logs = await logsOf(client, webhookId);
    // The delivery that waited continues its numbering: its 6th attempt, not a second 1st.
    expect(logs[0]).toMatchObject({ eventId: waiting, attempt: 6, status: 'success', nextAttemptAt: null });

    const recovered = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, {
      token,
      body: { since: new Date(start.getTime() - MINUTE).toISOString() },
      headers: { 'idempotency-key': `recover-${webhookId}` },
    });
    expect(recovered.status).toBe(202);
    expect(recovered.body.data).toMatchObject({ webhookId, queued: 2, status: 'active' });
    await runUntilNothingDue(client, webhookId);

    const succeeded = (await logsOf(client, webhookId)).filter((e) => e.status === 'success');
    expect(succeeded.map((e) => e.eventId).sort()).toEqual([exhausted, waiting, duringOutage].sort());
    expect(succeeded.find((e) => e.eventId === exhausted)?.attempt).toBe(7);
    expect(succeeded.find((e) => e.eventId === duringOutage)?.attempt).toBe(1);
    // Every event arrived, each exactly once.
    const received = acknowledged.filter((id) => eventsOf.get(id) === client.id);
    expect(received.sort()).toEqual([exhausted, waiting, duringOutage].sort());

    // Asked again (a new key), nothing is queued twice; the same key answers the first result.
    const again = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, {
      token,
      body: { since: new Date(start.getTime() - MINUTE).toISOString() },
    });
    expect(again.body.data.queued).toBe(0);
    const replay = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, {
      token,
      body: { since: new Date(start.getTime() - MINUTE).toISOString() },
      headers: { 'idempotency-key': `recover-${webhookId}` },
    });
    expect(replay.body.data).toEqual(recovered.body.data);
    await runUntilNothingDue(client, webhookId);
    const successes = (await logsOf(client, webhookId)).filter((e) => e.status === 'success');
    expect(successes).toHaveLength(3);
    expect(acknowledged.filter((id) => eventsOf.get(id) === client.id)).toHaveLength(3);
  });

  it('recover on a failed subscription queues the deliveries; they go out once it is re-activated', async () => {
    const { client, webhookId, mine, answer } = await setup(500);
    const since = app.clock.now().toISOString();
    const eventId = await enrol(client);
    await runUntilNothingDue(client, webhookId);
    expect(await statusOf(client, webhookId)).toBe('failed');
    answer(200);
    const token = await app.currentToken(client);
    const recovered = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, { token, body: { since } });
    expect(recovered.body.data).toMatchObject({ queued: 1, status: 'failed' });
    const before = mine().length;
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(before);
    await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { status: 'active' } });
    await dispatcher.runOnce();
    expect(
      mine()
        .slice(before)
        .map((d) => d.body.id),
    ).toEqual([eventId]);
  });

  it('recovers only the event types the subscription receives now, not those it has since dropped', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const created = await app.request('POST', '/v1/webhooks', {
      token,
      body: { url: `${receiver.url}/${client.id}`, events: ['user.enrolled', 'user.deleted'], secret: SECRET },
    });
    expect(created.status).toBe(201);
    const webhookId = created.body.data.webhookId as string;
    answers.set(client.id, 500);
    const since = new Date(app.clock.now().getTime() - MINUTE).toISOString();
    const enrolled = await enrol(client);
    const leaving = await enrol(client);
    const leavingUser = (
      await app.db.query<{ user_id: string }>("select data->>'userId' as user_id from outbox_events where id = $1", [leaving])
    ).rows[0]?.user_id;
    expect((await app.request('DELETE', `/v1/users/${leavingUser}`, { token: await app.currentToken(client) })).status).toBe(200);
    const { rows } = await app.db.query<{ id: string }>(
      "select id from outbox_events where type = 'user.deleted' and data->>'userId' = $1",
      [leavingUser],
    );
    const deleted = rows[0]?.id as string;
    eventsOf.set(deleted, client.id);
    await runUntilNothingDue(client, webhookId);
    expect(await statusOf(client, webhookId)).toBe('failed');
    const failedFor = async () =>
      (
        await app.db.query<{ event_id: string; state: string }>(
          'select event_id, state from webhook_deliveries where webhook_id = $1 order by event_id',
          [webhookId],
        )
      ).rows;
    expect((await failedFor()).filter((d) => d.state === 'failed').map((d) => d.event_id)).toEqual(
      expect.arrayContaining([enrolled, leaving, deleted]),
    );

    // The partner stops listening to user.deleted, then recovers the outage.
    answers.set(client.id, 200);
    const current = await app.currentToken(client);
    const patched = await app.request('PATCH', `/v1/webhooks/${webhookId}`, {
      token: current,
      body: { events: ['user.enrolled'], status: 'active' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const recovered = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, { token: current, body: { since } });
    expect(recovered.status).toBe(202);
    expect(recovered.body.data).toMatchObject({ webhookId, queued: 2, status: 'active' });
    await runUntilNothingDue(client, webhookId);

    const received = acknowledged.filter((id) => eventsOf.get(id) === client.id);
    expect(received.sort()).toEqual([enrolled, leaving].sort());
    expect((await failedFor()).find((d) => d.event_id === deleted)?.state).toBe('failed');
  });

  it('answers the window it recovered: until as asked, and none when the window has no end', async () => {
    const { client, webhookId } = await setup();
    const token = await app.currentToken(client);
    const now = app.clock.now().getTime();
    const since = new Date(now - DAY).toISOString();
    const open = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, { token, body: { since } });
    expect(open.status).toBe(202);
    expect(open.body.data).toEqual({ webhookId, queued: 0, since, status: 'active' });
    const until = '2030-01-01T00:00:00+00:00';
    const bounded = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, { token, body: { since, until } });
    expect(bounded.body.data).toEqual({ webhookId, queued: 0, since, until: '2030-01-01T00:00:00.000Z', status: 'active' });
  });

  it('answers 400 naming the field for a since in the future, more than 30 days back, or an until before it', async () => {
    const { client, webhookId } = await setup();
    const token = await app.currentToken(client);
    const now = app.clock.now().getTime();
    const cases: [Record<string, unknown>, string][] = [
      [{ since: new Date(now + MINUTE).toISOString() }, 'since'],
      [{ since: new Date(now - 31 * DAY).toISOString() }, 'since'],
      [{ since: new Date(now - DAY).toISOString(), until: new Date(now - 2 * DAY).toISOString() }, 'until'],
      [{ since: 'yesterday' }, 'since'],
      [{}, 'since'],
    ];
    for (const [body, field] of cases) {
      const res = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const ok = await app.request('POST', `/v1/webhooks/${webhookId}/recover`, {
      token,
      body: { since: new Date(now - 30 * DAY + MINUTE).toISOString() },
    });
    expect(ok.status).toBe(202);
  });
});

describe('retrying one delivery', () => {
  it('resends now whatever its state, continuing its attempt numbers and leaving the schedule alone', async () => {
    const { client, webhookId, mine, answer } = await setup(500);
    const eventId = await enrol(client);
    await dispatcher.runOnce();
    const [first] = await logsOf(client, webhookId);
    if (!first) throw new Error('no attempt');
    expect(first).toMatchObject({ attempt: 1, status: 'failed' });
    const scheduled = first.nextAttemptAt;
    expect(scheduled).toBe(new Date(app.clock.now().getTime() + MINUTE).toISOString());

    const token = await app.currentToken(client);
    const retry = (deliveryId = first.deliveryId, hook = webhookId, as = token) =>
      app.request('POST', `/v1/webhooks/${hook}/deliveries/${deliveryId}/retry`, { token: as });
    const failed = await retry();
    expect(failed.status).toBe(200);
    // A failed resend keeps the automatic retry where it was.
    expect(failed.body.data).toMatchObject({
      deliveryId: first.deliveryId,
      attempt: 2,
      status: 'failed',
      nextAttemptAt: scheduled,
    });

    answer(200);
    const succeeded = await retry();
    expect(succeeded.body.data).toMatchObject({ attempt: 3, status: 'success', statusCode: 200, nextAttemptAt: null });
    // Delivered: the schedule has nothing left to do.
    app.clock.advance(2 * DAY);
    await dispatcher.runOnce();
    expect(mine().filter((d) => d.body.id === eventId)).toHaveLength(3);

    // A delivered event can be sent again (a receiver that lost it); numbering goes on.
    const resent = await retry(first.deliveryId, webhookId, await app.currentToken(client));
    expect(resent.body.data).toMatchObject({ attempt: 4, status: 'success' });
    const logs = await logsOf(client, webhookId);
    expect(logs.map((e) => e.attempt)).toEqual([4, 3, 2, 1]);
    expect(new Set(logs.map((e) => e.deliveryId))).toEqual(new Set([first.deliveryId]));
    const last = mine().at(-1) as ReceivedDelivery;
    expect(last.body.id).toBe(eventId);
    expect(last.headers['webhook-id']).toBe(eventId);

    // Unknown ids, a test delivery and another client's delivery are all 404.
    const current = await app.currentToken(client);
    expect((await retry('del_doesNotExist0001', webhookId, current)).status).toBe(404);
    const test = await app.request('POST', `/v1/webhooks/${webhookId}/test`, {
      token: current,
      body: { eventType: 'user.enrolled' },
    });
    expect((await retry(test.body.data.deliveryId, webhookId, current)).status).toBe(404);
    const other = await setup();
    const otherToken = await app.currentToken(other.client);
    expect((await retry(first.deliveryId, other.webhookId, otherToken)).status).toBe(404);
    expect((await retry(first.deliveryId, webhookId, otherToken)).status).toBe(404);
  });

  it('a resend that delivers while the last scheduled attempt is in flight stays delivered, and fails nothing', async () => {
    const { client, webhookId, answer } = await setup(500);
    const eventId = await enrol(client);
    await dispatcher.runOnce();
    for (const minutes of [1, 5, 30, 120]) {
      app.clock.advance(minutes * MINUTE);
      await dispatcher.runOnce();
    }
    // The last scheduled attempt is claimed by a worker (its lease), and a resend delivers before it settles.
    app.clock.advance(DAY);
    const [claimed] = await claimDueDeliveries(
      app.db,
      app.clock.now(),
      new Date(app.clock.now().getTime() + MINUTE),
      'lease-race',
      10,
    );
    expect(claimed?.event_id).toBe(eventId);
    answer(200);
    const [latest] = await logsOf(client, webhookId);
    const resend = await app.request('POST', `/v1/webhooks/${webhookId}/deliveries/${latest?.deliveryId}/retry`, {
      token: await app.currentToken(client),
    });
    expect(resend.body.data).toMatchObject({ status: 'success' });
    const { failedWebhooks } = await app.db.transaction((tx) =>
      settleAttempts(tx, [
        {
          deliveryId: claimed?.id as string,
          leaseToken: 'lease-race',
          webhookId,
          attempt: {
            eventId,
            eventType: 'user.enrolled',
            attempt: 6,
            status: 'failed',
            statusCode: 500,
            responseTimeMs: 5,
            deliveredAt: app.clock.now(),
            error: 'http 500',
          },
          next: { state: 'failed', nextAttemptAt: null },
          final: true,
          failureCountSeen: 5,
        },
      ]),
    );
    expect(failedWebhooks).toEqual([]);
    const hook = await app.request('GET', `/v1/webhooks/${webhookId}`, { token: await app.currentToken(client) });
    expect(hook.body.data.status).toBe('active');
    const { rows } = await app.db.query<{ state: string }>('select state from webhook_deliveries where id = $1', [claimed?.id]);
    expect(rows[0]?.state).toBe('succeeded');
  });
});
