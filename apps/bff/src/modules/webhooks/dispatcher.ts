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
}

/** The deliveries this worker holds for one receiver origin: at most WEBHOOK_CONNECTIONS_PER_ORIGIN sending. */
interface Lane {
  sending: number;
  waiting: Leased[];
  /** Subscriptions seen on this origin, left out of claims while the lane is full. */
  webhooks: Set<string>;
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * All state lives in the database, so timers only decide when to look: a crash loses nothing and any number of workers
 * may share one PostgreSQL. A receiver with its share claimed is left out of claims, so one slow receiver cannot take every slot.
 */
export const startDispatcher = (ctx: AppContext, options: { poll?: boolean } = {}): Dispatcher => {
  const { config, logger } = ctx;
  const deliverer = new Deliverer(config);
  const notifier: FailureNotifier = createFailureNotifier(ctx);
  const settler = createSettler(ctx);
  const schedule = config.WEBHOOK_RETRY_SCHEDULE;
  // An attempt ends by its timeout; the margin covers recording it. A dead worker's claims return after this.
  const leaseMs = config.WEBHOOK_TIMEOUT_MS + 10_000;
  // A waiting delivery starts only if its lease covers a whole attempt, else another worker could take it over mid-attempt.
  const startBudgetMs = config.WEBHOOK_TIMEOUT_MS + 5_000;
  const perOrigin = config.WEBHOOK_CONNECTIONS_PER_ORIGIN;
  const maxSending = config.WEBHOOK_CONCURRENCY;
  // Claimed ahead of sending, per receiver and in all: enough to keep connections busy through a claim's round trip.
  const maxHeld = 2 * maxSending;
  const maxHeldPerOrigin = 2 * perOrigin;
  const lanes = new Map<string, Lane>();
  const sending = new Set<Promise<void>>();
  /** Claimed and not yet sent: waiting in a lane or on the wire. */
  let held = 0;
  /** The last claim filled its batch or left receivers out, so more is probably due: finished attempts ask for more. */
  let backlog = false;
  /** The last claim found nothing beyond the receivers it left out: only a lane running low makes claiming worthwhile. */
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
    });
    if (!outcome.ok) {
      const fields = { webhookId: webhook.id, deliveryId: job.id, attempt: number, statusCode: outcome.statusCode };
      logger.warn({ ...fields, reason: outcome.error, detail: outcome.detail }, 'webhook delivery attempt failed');
    }
  };

  const scheduleRefill = (lane: Lane) => {
    if (stopped || options.poll === false || refillQueued || !backlog) return;
    // Refill at half the claimed-ahead room, so one claim carries many deliveries, or when a lane is about to idle.
    const laneLow = lane.sending + lane.waiting.length <= perOrigin;
    if (!laneLow && (starved || held > maxHeld / 2)) return;
    refillQueued = true;
    setImmediate(() => {
      refillQueued = false;
      void tick(CLAIM);
    });
  };

  /** Starts what a lane's free connections allow; gives back what waited too long to start safely. */
  const pump = (origin: string, lane: Lane) => {
    while (lane.waiting.length > 0 && (stopped || (lane.sending < perOrigin && sending.size < maxSending))) {
      const leased = lane.waiting.shift() as Leased;
      if (stopped || ctx.clock.now().getTime() > leased.leaseUntil - startBudgetMs) {
        held--;
        settler.release({ deliveryId: leased.job.id, leaseToken: leased.leaseToken });
        continue;
      }
      lane.sending++;
      const task: Promise<void> = attempt(leased)
        .catch((error: unknown) =>
          logger.warn({ err: error, deliveryId: leased.job.id }, 'webhook attempt crashed; lease will expire'),
        )
        .finally(() => {
          sending.delete(task);
          lane.sending--;
          held--;
          pump(origin, lane);
          // A slot freed in the global limit may be what another receiver's lane waits for.
          if (lanes.size > 1) for (const [other, otherLane] of lanes) if (otherLane !== lane) pump(other, otherLane);
          scheduleRefill(lane);
        });
      sending.add(task);
    }
    if (lane.sending === 0 && lane.waiting.length === 0) lanes.delete(origin);
  };

  const startAttempts = async () => {
    const full = [...lanes.values()].filter((lane) => lane.sending + lane.waiting.length >= maxHeldPerOrigin);
    const limit = maxHeld - held;
    if (limit <= 0) return;
    const now = ctx.clock.now();
    const leaseToken = ctx.ids.id('lease');
    const leaseUntil = now.getTime() + leaseMs;
    const skipWebhooks = full.flatMap((lane) => [...lane.webhooks]);
    const jobs = await claimDeliveryJobs(ctx.db, { now, leaseUntil: new Date(leaseUntil), leaseToken, limit, skipWebhooks });
    backlog = jobs.length === limit || skipWebhooks.length > 0;
    starved = jobs.length === 0 && skipWebhooks.length > 0;
    const secrets = new Map<string, string[] | Error>();
    const touched = new Set<string>();
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
      let lane = lanes.get(origin);
      if (!lane) {
        lane = { sending: 0, waiting: [], webhooks: new Set() };
        lanes.set(origin, lane);
      }
      lane.webhooks.add(job.webhook_id);
      lane.waiting.push({ job, leaseToken, leaseUntil, secrets: secrets.get(job.webhook_id) as string[] | Error });
      held++;
      touched.add(origin);
    }
    for (const origin of touched) {
      const lane = lanes.get(origin);
      if (lane) pump(origin, lane);
    }
  };

  const sendNotices = async () => {
    for (let i = 0; i < NOTICES_PER_TICK; i++) {
      const now = ctx.clock.now();
      const notice = await claimNotice(ctx.db, now, new Date(now.getTime() + 5 * 60_000));
      if (!notice) return;
      try {
        await notifier.notify(notice);
        await finishNotice(ctx.db, notice.id);
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
      // Deliveries still waiting for a connection are given back; those on the wire finish and are recorded.
      for (const [origin, lane] of lanes) pump(origin, lane);
      await settled();
      await deliverer.close();
      notifier.close();
    },
  };
};
