import type { AppContext } from '../../context.ts';
import { type AttemptSettlement, releaseDeliveries, settleAttempts } from './queue-repo.ts';

/** Rows per settling transaction: big enough to amortise a commit, small enough to keep its locks short. */
const MAX_BATCH = 500;
/**
 * How long the first outcome waits for others before its transaction starts. Only the recording waits (the
 * receiver already has the delivery), so this costs no delivery latency and turns a trickle of answers into batches.
 */
const GATHER_MS = 5;
/** Retries of a batch that lost a deadlock (with an API transaction on the same subscription, say). */
const DEADLOCK_RETRIES = 3;

export interface Settler {
  /** Queues the end of an attempt; it is written with whatever else ended meanwhile. */
  settle(settlement: AttemptSettlement): void;
  /** Queues a lease to give back without an attempt. */
  release(lease: { deliveryId: string; leaseToken: string }): void;
  /** Resolves when everything queued so far is written (or given up on). */
  idle(): Promise<void>;
}

const isDeadlock = (error: unknown) => (error as { code?: string } | null)?.code === '40P01';

/**
 * Group commit for attempt outcomes: the first outcome starts a transaction after a few milliseconds; the ones
 * that end meanwhile, or while it runs, go with it or together in the next. Latency stays one transaction when idle, and under load the number of
 * transactions follows the database's pace instead of the number of deliveries. An outcome that cannot be written
 * is dropped with a warning: its lease runs out and the attempt is made again (at-least-once).
 */
export const createSettler = (ctx: AppContext): Settler => {
  const { logger } = ctx;
  let queued: AttemptSettlement[] = [];
  let releases: { deliveryId: string; leaseToken: string }[] = [];
  let running: Promise<void> | undefined;

  const write = async (batch: AttemptSettlement[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const { failedWebhooks } = await ctx.db.transaction((tx) => settleAttempts(tx, batch));
        for (const webhookId of failedWebhooks) {
          const deliveryId = batch.find((s) => s.final && s.webhookId === webhookId)?.deliveryId;
          logger.warn({ webhookId, deliveryId }, 'webhook failed after its last retry');
        }
        return;
      } catch (error) {
        if (isDeadlock(error) && attempt < DEADLOCK_RETRIES) continue;
        logger.warn({ err: error, deliveries: batch.length }, 'webhook attempts not recorded; their leases will expire');
        return;
      }
    }
  };

  const drain = async () => {
    while (queued.length > 0 || releases.length > 0) {
      if (releases.length > 0) {
        const leases = releases;
        releases = [];
        await releaseDeliveries(ctx.db, leases).catch((error: unknown) =>
          logger.warn({ err: error }, 'webhook leases not released; they will expire'),
        );
      }
      if (queued.length > 0) {
        const batch = queued.slice(0, MAX_BATCH);
        queued = queued.slice(batch.length);
        await write(batch);
      }
    }
  };

  const kick = () => {
    if (running) return;
    running = new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS)).then(drain).finally(() => {
      running = undefined;
      if (queued.length > 0 || releases.length > 0) kick();
    });
  };

  return {
    settle(settlement) {
      queued.push(settlement);
      kick();
    },
    release(lease) {
      releases.push(lease);
      kick();
    },
    async idle() {
      while (running) await running;
    },
  };
};
