import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneExpired } from '../src/retention/prune.ts';
import { runHousekeeping } from '../src/worker.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let userId: string;
let webhookId: string;
beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  userId = await enrolActiveUser(app, await app.token(client));
  webhookId = `wh_retention_${Date.now()}`;
  const now = app.clock.now();
  await app.db.query(
    `insert into webhooks (id, client_id, url, events, status, secret_enc, created_at, updated_at)
     values ($1, $2, 'https://hooks.example.test/r', '{alert.created}', 'active', 'unused', $3, $3)`,
    [webhookId, client.id, now],
  );
});
afterAll(() => app.close());

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(app.clock.now().getTime() - days * DAY);
const monthsAgo = (months: number) => {
  const at = app.clock.now();
  at.setUTCMonth(at.getUTCMonth() - months);
  return at;
};
let serial = 0;
const id = (prefix: string) => `${prefix}_ret${Date.now().toString(36)}${serial++}`;

const insertEvent = async (createdAt: Date, dispatched: boolean) => {
  const eventId = id('evt');
  await app.db.query(
    `insert into outbox_events (id, client_id, type, data, created_at, dispatched_at) values ($1, $2, 'alert.created', '{}', $3, $4)`,
    [eventId, client.id, createdAt, dispatched ? createdAt : null],
  );
  return eventId;
};
const insertDelivery = async (eventId: string, createdAt: Date, state: 'pending' | 'succeeded' | 'failed') => {
  const deliveryId = id('del');
  await app.db.query(
    `insert into webhook_deliveries (id, webhook_id, client_id, event_id, event_type, state, attempts, next_attempt_at, created_at)
     values ($1, $2, $3, $4, 'alert.created', $5, 1, $6, $6)`,
    [deliveryId, webhookId, client.id, eventId, state, createdAt],
  );
  await app.db.query(
    `insert into webhook_attempts (delivery_id, webhook_id, event_id, event_type, attempt, status, status_code, response_time_ms, delivered_at)
     values ($1, $2, $3, 'alert.created', 1, $4, $5, 12, $6)`,
    [deliveryId, webhookId, eventId, state === 'succeeded' ? 'success' : 'failed', state === 'succeeded' ? 200 : 500, createdAt],
  );
  return deliveryId;
};
const insertAlert = async (createdAt: Date) => {
  const alertId = id('alr');
  await app.db.query(
    `insert into alerts (id, user_id, client_id, type, title, message, severity, status, data, created_at)
     values ($1, $2, $3, 'new_inquiry', 't', 'm', 'info', 'unread', '{}', $4)`,
    [alertId, userId, client.id, createdAt],
  );
  await app.db.query('insert into monitoring_alert_keys (user_id, key, created_at) values ($1, $2, $3)', [
    userId,
    `inquiry:${alertId}`,
    createdAt,
  ]);
  return alertId;
};
const insertScore = async (scoreDate: Date) => {
  const { rows } = await app.db.query<{ seq: string }>(
    `insert into score_history (user_id, client_id, score, score_date, source, created_at)
     values ($1, $2, 700, $3::date, 'monitoring', $4) returning seq`,
    [userId, client.id, scoreDate.toISOString().slice(0, 10), app.clock.now()],
  );
  return String(rows[0]?.seq);
};

const exists = async (table: string, column: string, value: string) => {
  const { rows } = await app.db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${column} = $1`, [value]);
  return (rows[0]?.n ?? 0) > 0;
};

describe('retention (housekeeping)', () => {
  it('deletes what outlived its age and keeps what is recent or still owed', async () => {
    const oldSettledEvent = await insertEvent(daysAgo(31), true);
    const oldSettled = await insertDelivery(oldSettledEvent, daysAgo(31), 'succeeded');
    const oldFailed = await insertDelivery(await insertEvent(daysAgo(40), true), daysAgo(40), 'failed');
    const oldOwedEvent = await insertEvent(daysAgo(31), true);
    const oldOwed = await insertDelivery(oldOwedEvent, daysAgo(31), 'pending');
    const oldUndispatched = await insertEvent(daysAgo(31), false);
    const recentEvent = await insertEvent(daysAgo(29), true);
    const recent = await insertDelivery(recentEvent, daysAgo(29), 'succeeded');
    const oldAlert = await insertAlert(monthsAgo(25));
    const recentAlert = await insertAlert(monthsAgo(23));
    const oldScore = await insertScore(monthsAgo(85));
    const recentScore = await insertScore(monthsAgo(83));

    const { pruned } = await runHousekeeping(app.ctx);

    expect(await exists('webhook_deliveries', 'id', oldSettled)).toBe(false);
    expect(await exists('webhook_attempts', 'delivery_id', oldSettled)).toBe(false);
    expect(await exists('webhook_deliveries', 'id', oldFailed)).toBe(false);
    expect(await exists('outbox_events', 'id', oldSettledEvent)).toBe(false);
    expect(await exists('alerts', 'id', oldAlert)).toBe(false);
    expect(await exists('monitoring_alert_keys', 'key', `inquiry:${oldAlert}`)).toBe(false);
    expect(await exists('score_history', 'seq', oldScore)).toBe(false);

    // A delivery still owed keeps its row and its event; an event not yet fanned out stays too.
    expect(await exists('webhook_deliveries', 'id', oldOwed)).toBe(true);
    expect(await exists('outbox_events', 'id', oldOwedEvent)).toBe(true);
    expect(await exists('outbox_events', 'id', oldUndispatched)).toBe(true);
    expect(await exists('webhook_deliveries', 'id', recent)).toBe(true);
    expect(await exists('webhook_attempts', 'delivery_id', recent)).toBe(true);
    expect(await exists('outbox_events', 'id', recentEvent)).toBe(true);
    expect(await exists('alerts', 'id', recentAlert)).toBe(true);
    expect(await exists('monitoring_alert_keys', 'key', `inquiry:${recentAlert}`)).toBe(true);
    expect(await exists('score_history', 'seq', recentScore)).toBe(true);
    expect(pruned).toMatchObject({ webhookDeliveries: 2, alerts: 1, alertKeys: 1, scoreHistory: 1 });
  });

  it('works through a backlog in chunks until none is left', async () => {
    const old = await Promise.all(Array.from({ length: 7 }, () => insertAlert(monthsAgo(30))));
    const kept = await insertAlert(monthsAgo(1));

    const report = await pruneExpired(app.ctx, { chunkRows: 2 });

    expect(report.alerts).toBe(7);
    expect(report.alertKeys).toBe(7);
    for (const alertId of old) expect(await exists('alerts', 'id', alertId)).toBe(false);
    expect(await exists('alerts', 'id', kept)).toBe(true);
    expect(await pruneExpired(app.ctx, { chunkRows: 2 })).toMatchObject({ alerts: 0, alertKeys: 0 });
  });

  it('deletes deliveries parked on a subscription that stayed failed past the retention, and then their events', async () => {
    const failedHook = id('wh');
    await app.db.query(
      `insert into webhooks (id, client_id, url, events, status, secret_enc, created_at, updated_at)
       values ($1, $2, 'https://hooks.example.test/f', '{alert.created}', 'failed', 'unused', $3, $3)`,
      [failedHook, client.id, daysAgo(60)],
    );
    const parkedEvent = await insertEvent(daysAgo(40), true);
    const parked = id('del');
    await app.db.query(
      `insert into webhook_deliveries (id, webhook_id, client_id, event_id, event_type, state, attempts, next_attempt_at, created_at)
       values ($1, $2, $3, $4, 'alert.created', 'pending', 6, null, $5)`,
      [parked, failedHook, client.id, parkedEvent, daysAgo(40)],
    );
    await runHousekeeping(app.ctx);
    expect(await exists('webhook_deliveries', 'id', parked)).toBe(false);
    expect(await exists('outbox_events', 'id', parkedEvent)).toBe(false);
  });
});
