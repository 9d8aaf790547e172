import { FAST_RETRY_DELAYS_MS, type TRetrySchedule } from '@credit/contract';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { OUTBOX_CHANNEL } from '../../outbox/outbox.ts';
import { type AttemptOutcome, Deliverer } from './deliver.ts';
import { sendSigned } from './envelope.ts';
import { COULD_NOT_SIGN, UNKNOWN_FAILURE } from './failure-reason.ts';
import { createFailureNotifier, type FailureNotifier } from './notify-failure.ts';
import { claimDeliveryJobs, claimNotice, type DeliveryJob, fanOutBatch, finishNotice, releaseNotice } from './queue-repo.ts';
import { signingSecrets } from './secrets.ts';
import { createSettler } from './settler.ts';

const FAN_OUT_BATCH = 200;
const NOTICES_PER_TICK = 5;

export interface Dispatcher {
  /** Resolves once the attempts it started have ended and been recorded. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once a commit's NOTIFY wakes this worker (at once when it does not listen). */
  listening: Promise<void>;
}

interface Leased {
  job: DeliveryJob;
  leaseToken: string;
  leaseUntil: number;
  secrets: string[] | Error;
  origin: string;
}

/** What this worker holds of one receiver origin or one client: claimed (`held`), and of those on the wire. */
interface Share {
  held: number;
  sending: number;
}

/** One receiver origin: at most WEBHOOK_CONNECTIONS_PER_ORIGIN sending. */
interface OriginShare extends Share {
  /** Subscriptions seen on this origin, left out of claims while it holds its share. */
  webhooks: Set<string>;
}

/** One client: at most its slots sending, whatever its origins; its deliveries wait here in claim order. */
interface ClientShare extends Share {
  waiting: Leased[];
}

/** A client's delivery slots on one worker: WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT, by default a quarter of the worker's. */
export const clientSlots = (config: Pick<Config, 'WEBHOOK_CONCURRENCY' | 'WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT'>): number =>
  Math.min(
    config.WEBHOOK_CONCURRENCY,
    config.WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT ?? Math.max(1, Math.floor(config.WEBHOOK_CONCURRENCY / 4)),
  );

/**
 * The waits of each schedule. `standard` is the operator's WEBHOOK_RETRY_SCHEDULE; `fast` (sandbox only) never waits
 * longer than it, so a test's short schedule applies to both, and is `standard` outside the sandbox.
 */
export const retrySchedules = (config: Pick<Config, 'APP_ENV' | 'WEBHOOK_RETRY_SCHEDULE'>): Record<TRetrySchedule, number[]> => {
  const standard = config.WEBHOOK_RETRY_SCHEDULE;
  const fast = FAST_RETRY_DELAYS_MS.map((delay, i) => Math.min(delay, standard[i] ?? delay));
  return { standard, fast: config.APP_ENV === 'sandbox' ? fast : standard };
};

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * All state lives in the database, so timers only decide when to look: a crash loses nothing and any number of workers
 * may share one PostgreSQL. A receiver or a client with its share claimed is left out of claims, and a free slot goes to
 * the client with the fewest in flight, so one client's slow receivers hold back only that client.
 */
export const startDispatcher = (ctx: AppContext, options: { poll?: boolean } = {}): Dispatcher => {
  const { config, logger } = ctx;
  const deliverer = new Deliverer(config);
  const notifier: FailureNotifier = createFailureNotifier(ctx);
  const settler = createSettler(ctx);
  const schedules = retrySchedules(config);
  // An attempt ends by its timeout; the margin covers recording it. A dead worker's claims return after this.
  const leaseMs = config.WEBHOOK_TIMEOUT_MS + 10_000;
  // A waiting delivery starts only if its lease covers a whole attempt, else another worker could take it over mid-attempt.
  const startBudgetMs = config.WEBHOOK_TIMEOUT_MS + 5_000;
  const perOrigin = config.WEBHOOK_CONNECTIONS_PER_ORIGIN;
  const maxSending = config.WEBHOOK_CONCURRENCY;
  const perClient = clientSlots(config);
  if (config.WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT !== undefined && perClient >= maxSending) {
    logger.warn(
      { perClient, concurrency: maxSending },
      'WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT is not below WEBHOOK_CONCURRENCY: one client with hanging receivers can hold every delivery slot',
    );
  }
  // Claimed ahead of sending, per receiver, per client and in all: enough to keep connections busy through a claim's round trip.
  const maxHeld = 2 * maxSending;
  const maxHeldPerOrigin = 2 * perOrigin;
  const maxHeldPerClient = 2 * perClient;
  const origins = new Map<string, OriginShare>();
  /** In turn order: a client that starts a delivery moves to the back. */
  const clients = new Map<string, ClientShare>();
  const sending = new Set<Promise<void>>();
  /** Claimed and not yet sent: waiting or on the wire. */
  let held = 0;
  /** The last claim filled its batch or left receivers or clients out, so more is probably due: finished attempts ask for more. */
  let backlog = false;
  /** The last claim found nothing beyond what it left out: only a receiver or client running low makes claiming worthwhile. */
  let starved = false;
  let ticking: Promise<void> | undefined;
  let refillQueued = false;
  let notifyQueued = false;
  let stopped = false;

  const attempt = async (leased: Leased) => {
    const { job, leaseToken } = leased;
    const { webhook, event } = job;
    if (!event) return;
    // Failing to send at all is a failed attempt too, so the delivery reaches `failed` instead of retrying every lease expiry.
    const outcome: AttemptOutcome =
      leased.secrets instanceof Error
        ? { ok: false, statusCode: 0, responseTimeMs: 0, error: COULD_NOT_SIGN, detail: leased.secrets.message }
        : await sendSigned(ctx, deliverer, webhook, event, leased.secrets).catch((error: unknown) => ({
            ok: false,
            statusCode: 0,
            responseTimeMs: 0,
            error: UNKNOWN_FAILURE,
            detail: error instanceof Error ? error.message : undefined,
          }));
    const at = ctx.clock.now();
    const number = job.attempts + 1;
    // The schedule counts from its latest start (the first attempt, a re-activation or a recovery).
    const schedule = schedules[webhook.retry_schedule];
    const made = job.attempts - job.schedule_base;
    const final = !outcome.ok && made >= schedule.length;
    const delay = schedule[made] ?? 0;
    settler.settle({
      deliveryId: job.id,
      leaseToken,
      webhookId: webhook.id,
      attempt: {
        eventId: event.id,
        eventType: event.type,
        attempt: number,
        status: outcome.ok ? 'success' : 'failed',
        statusCode: outcome.statusCode,
        responseTimeMs: outcome.responseTimeMs,
        deliveredAt: at,
        error: outcome.error,
      },
      next: outcome.ok
        ? { state: 'succeeded', nextAttemptAt: null }
        : final
          ? { state: 'failed', nextAttemptAt: null }
          : { state: 'pending', nextAttemptAt: new Date(at.getTime() + delay) },
      final,
      failureCountSeen: webhook.failure_count,
      lastSuccessSeen: webhook.last_success_at,
    });
    if (!outcome.ok) {
      const fields = { webhookId: webhook.id, deliveryId: job.id, attempt: number, statusCode: outcome.statusCode };
      logger.warn({ ...fields, reason: outcome.error, detail: outcome.detail }, 'webhook delivery attempt failed');
    }
  };

  const scheduleRefill = (origin: Share, client: Share) => {
    if (stopped || options.poll === false || refillQueued || !backlog) return;
    // Refill at half the claimed-ahead room, so one claim carries many deliveries, or when a receiver or client is about to idle.
    const low = origin.held <= perOrigin || client.held <= perClient;
    if (!low && (starved || held > maxHeld / 2)) return;
    refillQueued = true;
    setImmediate(() => {
      refillQueued = false;
      void tick(CLAIM);
    });
  };

  /** A delivery leaves this worker's hands: sent and recorded, or given back. */
  const leave = (leased: Leased, sent: boolean) => {
    held--;
    const clientId = leased.job.webhook.client_id;
    for (const [shares, key] of [
      [origins, leased.origin],
      [clients, clientId],
    ] as const) {
      const share = shares.get(key);
      if (!share) continue;
      share.held--;
      if (sent) share.sending--;
      if (share.held === 0) shares.delete(key);
    }
  };

  const giveBack = (leased: Leased) => {
    leave(leased, false);
    settler.release({ deliveryId: leased.job.id, leaseToken: leased.leaseToken });
  };

  const send = (leased: Leased, origin: OriginShare, client: ClientShare) => {
    origin.sending++;
    client.sending++;
    const task: Promise<void> = attempt(leased)
      .catch((error: unknown) =>
        logger.warn({ err: error, deliveryId: leased.job.id }, 'webhook attempt crashed; lease will expire'),
      )
      .finally(() => {
        sending.delete(task);
        leave(leased, true);
        pump();
        scheduleRefill(origin, client);
      });
    sending.add(task);
  };

  /**
   * Starts what free slots allow, each to the client with the fewest in flight (the longest without a start among
   * equals), within its slots and its receivers' connections; gives back what waited too long to start safely.
   */
  const pump = () => {
    const now = ctx.clock.now().getTime();
    while (!stopped && sending.size < maxSending) {
      let chosen: { clientId: string; client: ClientShare; index: number } | undefined;
      for (const [clientId, client] of clients) {
        // A client's deliveries wait in claim order, so those past their start budget are at the front.
        while (client.waiting.length > 0 && now > (client.waiting[0] as Leased).leaseUntil - startBudgetMs) {
          giveBack(client.waiting.shift() as Leased);
        }
        if (client.sending >= perClient || (chosen && client.sending >= chosen.client.sending)) continue;
        const index = client.waiting.findIndex((leased) => (origins.get(leased.origin)?.sending ?? perOrigin) < perOrigin);
        if (index === -1) continue;
        chosen = { clientId, client, index };
        if (client.sending === 0) break;
      }
      if (!chosen) return;
      const { clientId, client, index } = chosen;
      const [leased] = client.waiting.splice(index, 1) as [Leased];
      send(leased, origins.get(leased.origin) as OriginShare, client);
      // To the back of the line, so among clients with as many in flight the next slot goes to another one.
      clients.delete(clientId);
      clients.set(clientId, client);
    }
  };

  const startAttempts = async () => {
    const limit = maxHeld - held;
    if (limit <= 0) return;
    const now = ctx.clock.now();
    const leaseToken = ctx.ids.id('lease');
    const leaseUntil = now.getTime() + leaseMs;
    const skipWebhooks = [...origins.values()].filter((o) => o.held >= maxHeldPerOrigin).flatMap((o) => [...o.webhooks]);
    const clientRooms = [...clients].map(([clientId, c]) => ({ clientId, room: Math.max(0, maxHeldPerClient - c.held) }));
    const jobs = await claimDeliveryJobs(ctx.db, {
      now,
      leaseUntil: new Date(leaseUntil),
      leaseToken,
      limit,
      skipWebhooks,
      perClient: maxHeldPerClient,
      clientRooms,
    });
    const taken = new Map<string, number>();
    for (const job of jobs) taken.set(job.webhook.client_id, (taken.get(job.webhook.client_id) ?? 0) + 1);
    const roomOf = new Map(clientRooms.map((r) => [r.clientId, r.room]));
    // A client that took all its room, or had none, probably has more due.
    const clientsLeftOut =
      clientRooms.some((r) => r.room === 0) || [...taken].some(([id, n]) => n >= (roomOf.get(id) ?? maxHeldPerClient));
    backlog = jobs.length === limit || skipWebhooks.length > 0 || clientsLeftOut;
    starved = jobs.length === 0 && (skipWebhooks.length > 0 || clientsLeftOut);
    const secrets = new Map<string, string[] | Error>();
    for (const job of jobs) {
      if (!job.event) {
        // The event is gone: nothing can ever be sent, so the delivery ends without an attempt.
        settler.settle({
          deliveryId: job.id,
          leaseToken,
          webhookId: job.webhook_id,
          next: { state: 'failed', nextAttemptAt: null },
          final: false,
          failureCountSeen: job.webhook.failure_count,
        });
        continue;
      }
      if (!secrets.has(job.webhook_id)) {
        try {
          secrets.set(job.webhook_id, signingSecrets(ctx, job.webhook, now));
        } catch (error) {
          secrets.set(job.webhook_id, error instanceof Error ? error : new Error('unreadable secret'));
        }
      }
      const origin = originOf(job.webhook.url);
      let originShare = origins.get(origin);
      if (!originShare) {
        originShare = { held: 0, sending: 0, webhooks: new Set() };
        origins.set(origin, originShare);
      }
      originShare.webhooks.add(job.webhook_id);
      originShare.held++;
      let client = clients.get(job.webhook.client_id);
      if (!client) {
        client = { held: 0, sending: 0, waiting: [] };
        clients.set(job.webhook.client_id, client);
      }
      client.held++;
      client.waiting.push({ job, leaseToken, leaseUntil, secrets: secrets.get(job.webhook_id) as string[] | Error, origin });
      held++;
    }
    pump();
  };

  const sendNotices = async () => {
    for (let i = 0; i < NOTICES_PER_TICK; i++) {
      const now = ctx.clock.now();
      const notice = await claimNotice(ctx.db, now, new Date(now.getTime() + 5 * 60_000));
      if (!notice) return;
      try {
        await notifier.notify(notice);
        await finishNotice(ctx.db, notice.id, ctx.clock.now());
      } catch (error) {
        logger.warn({ err: error, webhookId: notice.id }, 'webhook failure notice not sent; will retry');
        await releaseNotice(ctx.db, notice.id);
        return;
      }
    }
  };

  /** How much a pass does: claim due attempts; also fan out new events; also send failure notices. */
  type Depth = 0 | 1 | 2 | 3;
  const CLAIM: Depth = 1;
  const FAN_OUT: Depth = 2;
  const FULL: Depth = 3;

  const pass = async (depth: Depth) => {
    if (depth >= FAN_OUT) {
      while ((await ctx.db.transaction((tx) => fanOutBatch(tx, ctx.ids, ctx.clock.now(), FAN_OUT_BATCH))) === FAN_OUT_BATCH) {
        // a full batch: more may be waiting
      }
    }
    await startAttempts();
    if (depth >= FULL) await sendNotices();
  };

  // One pass at a time per process; a call during a pass asks for another one, as deep as asked, right after it.
  let wanted: Depth = 0;
  const tick = (depth: Depth = FULL): Promise<void> => {
    wanted = Math.max(wanted, depth) as Depth;
    if (ticking) return ticking;
    ticking = (async () => {
      while (wanted > 0 && !stopped) {
        const current = wanted;
        wanted = 0;
        await pass(current);
      }
    })()
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook dispatcher pass failed; retrying at the next poll'))
      .finally(() => {
        ticking = undefined;
      });
    return ticking;
  };

  const settled = async () => {
    while (sending.size > 0) await Promise.all([...sending]);
    await settler.idle();
  };

  const timer = options.poll === false ? undefined : setInterval(() => void tick(), config.WEBHOOK_POLL_INTERVAL_MS);
  timer?.unref();
  if (timer) void tick();
  // New events wake the worker at once through NOTIFY; the poll stays for retries and lost notifications.
  const unlisten =
    options.poll === false || !ctx.db.listen
      ? undefined
      : ctx.db
          .listen(OUTBOX_CHANNEL, () => {
            // A burst of commits becomes one fan-out, not one per event.
            if (notifyQueued) return;
            notifyQueued = true;
            setTimeout(() => {
              notifyQueued = false;
              void tick(FAN_OUT);
            }, 5);
          })
          .catch((error: unknown) => {
            logger.warn({ err: error }, 'cannot LISTEN for new events; relying on polling');
            return undefined;
          });

  return {
    listening: Promise.resolve(unlisten).then(() => undefined),
    async runOnce() {
      await tick();
      await settled();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await (await unlisten)?.();
      await ticking;
      // Deliveries still waiting for a slot are given back; those on the wire finish and are recorded.
      for (const client of [...clients.values()]) for (const leased of client.waiting.splice(0)) giveBack(leased);
      await settled();
      await deliverer.close();
      notifier.close();
    },
  };
};
