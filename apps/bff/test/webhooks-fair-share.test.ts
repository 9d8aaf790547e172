import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { clientSlots, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { claimDeliveryJobs, type DeliveryClaim, fanOutBatch } from '../src/modules/webhooks/queue-repo.ts';
import { recordEvent } from '../src/outbox/outbox.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';
import { usingPostgres } from './helpers/test-db.ts';
import { type Receiver, startReceiver, waitFor } from './helpers/webhook-receiver.ts';

const SECRET = 'whsec_fair_share_0123456789';

const subscribe = async (app: TestApp, token: string, url: string) => {
  const res = await app.request('POST', '/v1/webhooks', { token, body: { url, events: ['user.enrolled'], secret: SECRET } });
  expect(res.status).toBe(201);
  return res.body.data.webhookId as string;
};

const newClient = async (app: TestApp) => {
  const client = await app.createClient();
  return { id: client.id, token: await app.token(client) };
};

/** `count` user.enrolled events of one client, committed together (each wakes the dispatcher through NOTIFY). */
const commitEvents = (app: TestApp, clientId: string, count: number, tag: string) =>
  app.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await recordEvent(tx, app.ctx.ids, {
        clientId,
        type: 'user.enrolled',
        data: {
          userId: `usr_${tag}${String(i).padStart(8, '0')}`,
          externalUserId: `${tag}-${i}`,
          email: 'fair@example.test',
          status: 'pending_verification',
        },
        createdAt: app.clock.now(),
      });
    }
  });

const attemptsOf = async (app: TestApp, clientId: string) => {
  const { rows } = await app.db.query<{ status: string; error: string | null }>(
    'select a.status, a.error from webhook_attempts a join webhooks w on w.id = a.webhook_id where w.client_id = $1',
    [clientId],
  );
  return rows;
};

/** Receivers that hold every answer far longer than any test here runs: from the worker's side they hang. */
const hangingReceivers = async (count: number) => {
  const answered = { n: 0 };
  const receivers: Receiver[] = [];
  for (let i = 0; i < count; i++) {
    const receiver = await startReceiver(undefined, () => answered.n++);
    receiver.delayMs = 25_000;
    receivers.push(receiver);
  }
  return { receivers, answered, received: () => receivers.reduce((n, r) => n + r.received.length, 0) };
};

describe('delivery slots per client', () => {
  it('keeps a client with five hanging receivers to its slots, so another client’s delivery goes out at once', async () => {
    const a = await hangingReceivers(5);
    const b = await startReceiver();
    // Five origins of 8 connections each would take all 16 of the worker's slots; the client gets a quarter (4).
    const app = await startTestApp({
      config: {
        WEBHOOK_CA_FILE: b.caFile,
        WEBHOOK_CONCURRENCY: '16',
        WEBHOOK_CONNECTIONS_PER_ORIGIN: '8',
        WEBHOOK_TIMEOUT_MS: '20000',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      },
    });
    const slots = clientSlots(app.ctx.config);
    expect(slots).toBe(4);
    const dispatcher = startDispatcher(app.ctx);
    try {
      await dispatcher.listening;
      const noisy = await newClient(app);
      for (const receiver of a.receivers) await subscribe(app, noisy.token, receiver.url);
      const quiet = await newClient(app);
      await subscribe(app, quiet.token, b.url);

      await commitEvents(app, noisy.id, 300, 'noisy');
      await waitFor(() => expect(a.received()).toBe(slots));

      let noisyInFlightAtArrival = -1;
      b.respond = () => {
        noisyInFlightAtArrival = a.received() - a.answered.n;
        return 200;
      };
      await commitEvents(app, quiet.id, 1, 'quiet');
      // Within seconds, not after the noisy client's 1,500 deliveries: the latency itself is bench:webhooks-neighbour's.
      await waitFor(() => expect(b.received).toHaveLength(1), 10_000);
      expect(noisyInFlightAtArrival).toBe(slots);
      await waitFor(async () => expect(await attemptsOf(app, quiet.id)).toEqual([{ status: 'success', error: null }]));
      // Nothing of the noisy client has ended, and it never had more than its slots on the wire.
      expect(a.answered.n).toBe(0);
      expect(await attemptsOf(app, noisy.id)).toEqual([]);
      expect(a.received()).toBe(slots);
    } finally {
      // Closing the receivers ends the attempts still on the wire, so the dispatcher stops at once.
      for (const receiver of a.receivers) await receiver.close();
      await dispatcher.stop();
      await app.close();
      await b.close();
    }
  });

  it('gives a client’s slots back when its hanging attempts reach WEBHOOK_TIMEOUT_MS', async () => {
    const a = await hangingReceivers(2);
    const app = await startTestApp({
      config: {
        WEBHOOK_CA_FILE: a.receivers[0]?.caFile as string,
        WEBHOOK_CONCURRENCY: '8',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      },
    });
    const dispatcher = startDispatcher(app.ctx);
    try {
      await dispatcher.listening;
      const noisy = await newClient(app);
      for (const receiver of a.receivers) await subscribe(app, noisy.token, receiver.url);
      await commitEvents(app, noisy.id, 10, 'timeout');
      await waitFor(() => expect(a.received()).toBe(2));
      // The deadline ends the hanging attempts (logged as timeouts, retried later) and the next deliveries take the slots.
      await waitFor(async () => {
        const timedOut = (await attemptsOf(app, noisy.id)).filter((t) => t.error === 'timeout after 1 s');
        expect(timedOut.length).toBeGreaterThanOrEqual(2);
        expect(a.received()).toBeGreaterThanOrEqual(4);
      });
      expect(a.answered.n).toBe(0);
    } finally {
      for (const receiver of a.receivers) await receiver.close();
      await dispatcher.stop();
      await app.close();
    }
  });

  it('defaults to a quarter of WEBHOOK_CONCURRENCY and never more than all of it', () => {
    expect(clientSlots(loadConfig({}))).toBe(32);
    expect(clientSlots(loadConfig({ WEBHOOK_CONCURRENCY: '16' }))).toBe(4);
    expect(clientSlots(loadConfig({ WEBHOOK_CONCURRENCY: '2' }))).toBe(1);
    expect(clientSlots(loadConfig({ WEBHOOK_CONCURRENCY: '16', WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: '6' }))).toBe(6);
    expect(clientSlots(loadConfig({ WEBHOOK_CONCURRENCY: '16', WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: '99' }))).toBe(16);
    expect(() => loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: '0' })).toThrow(/WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT/);
  });
});

describe('claiming in turns across clients', () => {
  /** Client A's 40 deliveries fall due a second before B's 3 and C's 1, so oldest-first would take only A's. */
  const queue = async (app: TestApp) => {
    const clients: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
    for (const [name, count] of [
      ['a', 40],
      ['b', 3],
      ['c', 1],
    ] as const) {
      const client = await newClient(app);
      await subscribe(app, client.token, `https://127.0.0.1:9/${name}`);
      await commitEvents(app, client.id, count, `claim${name}`);
      await app.db.transaction((tx) => fanOutBatch(tx, app.ctx.ids, app.clock.now(), 1000));
      app.clock.advance(1000);
      clients[name] = client.id;
    }
    const byClient = new Map(Object.entries(clients).map(([name, id]) => [id, name]));
    const names = (jobs: { webhook: { client_id: string } }[]) => jobs.map((j) => byClient.get(j.webhook.client_id)).sort();
    return { clients, names };
  };
  const claim = (app: TestApp, leaseToken: string, rest: Partial<DeliveryClaim>): DeliveryClaim => {
    const now = app.clock.now();
    return { now, leaseUntil: new Date(now.getTime() + 60_000), leaseToken, limit: 10, skipWebhooks: [], ...rest };
  };

  it('takes every client’s oldest first, each up to its room, and never what another claim holds', async () => {
    const app = await startTestApp();
    try {
      const { clients, names } = await queue(app);
      // Turns: A, B, C, then A, B: five in all.
      const first = await claimDeliveryJobs(app.db, claim(app, 'lease_first', { limit: 5, perClient: 4 }));
      expect(names(first)).toEqual(['a', 'a', 'b', 'b', 'c']);
      // A client this worker holds of takes at most its room; one with none is left out.
      const second = await claimDeliveryJobs(
        app.db,
        claim(app, 'lease_second', {
          perClient: 4,
          clientRooms: [
            { clientId: clients.a, room: 3 },
            { clientId: clients.b, room: 0 },
          ],
        }),
      );
      expect(names(second)).toEqual(['a', 'a', 'a']);
      const ids = new Set(first.map((j) => j.id));
      expect(second.filter((j) => ids.has(j.id))).toEqual([]);
      // Without a room of its own a client takes `perClient`: B's last one and four more of A's.
      const third = await claimDeliveryJobs(app.db, claim(app, 'lease_third', { perClient: 4 }));
      expect(names(third)).toEqual(['a', 'a', 'a', 'a', 'b']);
    } finally {
      await app.close();
    }
  });

  it.skipIf(!usingPostgres)('lets a second worker claim beside one that holds rows locked, taking the next in turn', async () => {
    const app = await startTestApp();
    const schema = (app.db as Db & { schema?: string }).schema as string;
    const other = await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema, max: 2 });
    try {
      const { names } = await queue(app);
      const { first, second } = await app.db.transaction(async (tx) => {
        // The first worker's claim is not committed yet: its rows are locked, and still look free to the second.
        const first = await claimDeliveryJobs(tx, claim(app, 'lease_locking', { limit: 6, perClient: 4 }));
        const second = await claimDeliveryJobs(other, claim(app, 'lease_beside', { limit: 6, perClient: 4 }));
        return { first, second };
      });
      // Turns A, B, C, A, B, A: the six the first worker locked.
      expect(names(first)).toEqual(['a', 'a', 'a', 'b', 'b', 'c']);
      // The second skips them and takes the next in turn, B's third and A's fourth, instead of coming back empty.
      const taken = new Set(first.map((j) => j.id));
      expect(second.filter((j) => taken.has(j.id))).toEqual([]);
      expect(names(second)).toEqual(['a', 'b']);
    } finally {
      await other.close();
      await app.close();
    }
  });
});
