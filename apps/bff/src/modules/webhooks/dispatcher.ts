import type { AppContext } from '../../context.ts';
import { OUTBOX_CHANNEL } from '../outbox/repo.ts';
import { Deliverer } from './deliver.ts';
import { type EventToSend, sendSigned } from './envelope.ts';
import { insertAttempt } from './log-repo.ts';
import { createFailureNotifier, type FailureNotifier } from './notify-failure.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  claimNotice,
  fanOutBatch,
  finishNotice,
  loadEvents,
  markWebhookFailed,
  recordWebhookFailure,
  recordWebhookSuccess,
  releaseNotice,
  settleDelivery,
} from './queue-repo.ts';
import { findWebhooksByIds, type WebhookRow } from './repo.ts';

const FAN_OUT_BATCH = 200;
const NOTICES_PER_TICK = 5;

export interface Dispatcher {
  /** One pass: fan out, claim and start due attempts, send pending notices. Resolves when the attempts it started end. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The delivery worker. All state lives in the database (delivery rows with `next_attempt_at` and a lease),
 * so timers here only decide when to look: a crash loses nothing, and any number of workers may share one
 * PostgreSQL. The retry schedule is read against `ctx.clock`, so tests move time instead of sleeping.
 */
export const startDispatcher = (ctx: AppContext, options: { poll?: boolean } = {}): Dispatcher => {
  const { config, logger } = ctx;
  const deliverer = new Deliverer(config);
  const notifier: FailureNotifier = createFailureNotifier(ctx);
  const schedule = config.WEBHOOK_RETRY_SCHEDULE;
  // An attempt ends by its timeout; the margin covers recording it. A dead worker's claims return after this.
  const leaseMs = config.WEBHOOK_TIMEOUT_MS + 10_000;
  const inFlight = new Set<Promise<void>>();
  let ticking: Promise<void> | undefined;
  let refillQueued = false;
  let notifyQueued = false;
  let stopped = false;

  const attempt = async (
    claim: ClaimedDelivery,
    leaseToken: string,
    webhook: WebhookRow | undefined,
    event: EventToSend | undefined,
  ) => {
    if (!webhook || !event) {
      await settleDelivery(ctx.db, claim.id, leaseToken, { state: 'failed', nextAttemptAt: null });
      return;
    }
    // Anything that stops us from sending (an unreadable secret, say) is a failed attempt like any other,
    // so the delivery follows the schedule to `failed` instead of retrying at every lease expiry.
    const outcome = await sendSigned(ctx, deliverer, webhook, event).catch((error: unknown) => ({
      ok: false,
      statusCode: 0,
      responseTimeMs: 0,
      error: error instanceof Error ? error.message : 'could not send',
    }));
    const at = ctx.clock.now();
    const number = claim.attempts + 1;
    const final = !outcome.ok && claim.attempts >= schedule.length;
    const delay = schedule[claim.attempts] ?? 0;
    await ctx.db.transaction(async (tx) => {
      const next = outcome.ok
        ? { state: 'succeeded' as const, nextAttemptAt: null }
        : final
          ? { state: 'failed' as const, nextAttemptAt: null }
          : { state: 'pending' as const, nextAttemptAt: new Date(at.getTime() + delay) };
      // A worker that lost its lease (it stalled past the expiry) leaves the outcome to the one that took over.
      if (!(await settleDelivery(tx, claim.id, leaseToken, next))) return;
      await insertAttempt(tx, {
        deliveryId: claim.id,
        webhookId: webhook.id,
        eventId: event.id,
        eventType: event.type,
        attempt: number,
        status: outcome.ok ? 'success' : 'failed',
        statusCode: outcome.statusCode,
        responseTimeMs: outcome.responseTimeMs,
        deliveredAt: at,
      });
      if (outcome.ok) {
        if (webhook.failure_count !== 0) await recordWebhookSuccess(tx, webhook.id);
      } else await recordWebhookFailure(tx, webhook.id);
      if (final && (await markWebhookFailed(tx, webhook.id, at))) {
        logger.warn({ webhookId: webhook.id, deliveryId: claim.id }, 'webhook failed after its last retry');
      }
    });
    if (!outcome.ok) {
      const fields = { webhookId: webhook.id, deliveryId: claim.id, attempt: number, statusCode: outcome.statusCode };
      logger.warn({ ...fields, reason: outcome.error }, 'webhook delivery attempt failed');
    }
  };

  const startAttempts = async () => {
    const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
    if (free <= 0) return;
    const now = ctx.clock.now();
    const leaseToken = ctx.ids.id('lease');
    const claims = await claimDueDeliveries(ctx.db, now, new Date(now.getTime() + leaseMs), leaseToken, free);
    if (claims.length === 0) return;
    const events = await loadEvents(
      ctx.db,
      claims.map((c) => c.event_id),
    );
    const webhooks = await findWebhooksByIds(ctx.db, [...new Set(claims.map((c) => c.webhook_id))]);
    for (const claim of claims) {
      const task: Promise<void> = attempt(claim, leaseToken, webhooks.get(claim.webhook_id), events.get(claim.event_id))
        .catch((error: unknown) =>
          logger.warn({ err: error, deliveryId: claim.id }, 'webhook attempt crashed; lease will expire'),
        )
        .finally(() => {
          inFlight.delete(task);
          // A finished attempt frees a slot: refill soon rather than at the next poll, coalescing the
          // completions of one burst into one claim.
          if (!stopped && options.poll !== false && !refillQueued) {
            refillQueued = true;
            setTimeout(() => {
              refillQueued = false;
              void tick(CLAIM);
            }, 2);
          }
        });
      inFlight.add(task);
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
  // The poll runs full passes; a NOTIFY only needs the fan-out; a finished attempt only needs a claim.
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
    async runOnce() {
      await tick();
      await Promise.all([...inFlight]);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await (await unlisten)?.();
      await ticking;
      await Promise.all([...inFlight]);
      deliverer.close();
      notifier.close();
    },
  };
};
