import type { BureauTrigger } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { type PollLoop, startPollLoop } from '../../lib/poll-loop.ts';
import { scheduleTriggers } from '../users/service.ts';
import { advanceFeedCursor, feedCursor, insertTriggers, monitoredUsers } from './trigger-repo.ts';

/** One feed per bureau connection; the name keys its cursor. */
const FEED = 'bureau';
const PAGE_SIZE = 500;

export interface FeedReport {
  read: number;
  /** New triggers for monitored customers: each makes its customer due now. */
  scheduled: number;
  /** Triggers for files no longer monitored here; the bureau is told to stop monitoring them. */
  stopped: number;
}

/**
 * Stores triggers read from a feed and makes their monitored customers due at `receivedAt` (a pull from then on shows
 * the change), in the caller's transaction. Answers how many were new and the references no longer monitored here.
 */
export const intakeTriggers = async (
  tx: Queryable,
  triggers: BureauTrigger[],
  receivedAt: Date,
): Promise<{ scheduled: number; unmonitored: string[] }> => {
  const monitored = await monitoredUsers(tx, [...new Set(triggers.map((t) => t.reference))]);
  const kept = triggers.filter((t) => monitored.has(t.reference));
  const stored = await insertTriggers(
    tx,
    kept.map((t) => ({
      id: t.id,
      clientId: monitored.get(t.reference) ?? '',
      userId: t.reference,
      types: t.types,
      occurredOn: t.occurredOn,
      effectiveAt: receivedAt,
    })),
    receivedAt,
  );
  const due = kept.filter((t) => stored.has(t.id)).map((t) => ({ userId: t.reference, at: receivedAt }));
  await scheduleTriggers(tx, due, receivedAt);
  const unmonitored = [...new Set(triggers.filter((t) => !monitored.has(t.reference)).map((t) => t.reference))];
  return { scheduled: due.length, unmonitored };
};

/**
 * Reads one page after the stored cursor and, in one transaction, stores its new triggers, makes their customers due
 * and moves the cursor (only if no other reader moved it first), so a trigger is scheduled once however often it is
 * read. A trigger's file is due from the moment it was received: a pull from then on shows the change.
 */
const readPage = async (ctx: AppContext, report: FeedReport): Promise<boolean> => {
  const feed = ctx.bureau?.triggers;
  if (!feed) return false;
  const after = await feedCursor(ctx.db, FEED);
  const page = await feed.read(after, PAGE_SIZE);
  if (page.triggers.length === 0) return false;
  const receivedAt = ctx.clock.now();
  const unmonitored = await ctx.db.transaction(async (tx) => {
    const intake = await intakeTriggers(tx, page.triggers, receivedAt);
    if (!(await advanceFeedCursor(tx, FEED, { from: after, to: page.cursor, at: receivedAt }))) {
      throw new CursorMoved();
    }
    report.scheduled += intake.scheduled;
    return intake.unmonitored;
  });
  report.read += page.triggers.length;
  if (unmonitored.length > 0) {
    // Best effort: a file left in monitoring is stopped again at its next trigger.
    await feed.stop(unmonitored).catch((error: unknown) => {
      ctx.logger.warn(
        { err: error, files: unmonitored.length },
        'could not stop trigger monitoring; retried at the next trigger',
      );
    });
    report.stopped += unmonitored.length;
  }
  return page.cursor !== after;
};

class CursorMoved extends Error {}

/** Reads the feed until it has nothing new: what the worker's loop and tests call. */
export const readTriggerFeedUntilIdle = async (ctx: AppContext): Promise<FeedReport> => {
  const report: FeedReport = { read: 0, scheduled: 0, stopped: 0 };
  for (;;) {
    try {
      if (!(await readPage(ctx, report))) return report;
    } catch (error) {
      // Another reader stored this page; read on from where it left the cursor.
      if (!(error instanceof CursorMoved)) throw error;
    }
  }
};

/** The worker role's loop over the bureau's trigger feed, every TRIGGER_FEED_INTERVAL_MS; none without a feed. */
export const startTriggerFeed = (ctx: AppContext): PollLoop | undefined => {
  if (!ctx.bureau?.triggers) return undefined;
  let failuresInARow = 0;
  return startPollLoop(ctx.config.TRIGGER_FEED_INTERVAL_MS, async () => {
    try {
      const report = await readTriggerFeedUntilIdle(ctx);
      failuresInARow = 0;
      if (report.read > 0) ctx.logger.info({ ...report }, 'bureau triggers read');
    } catch (error) {
      // Once per outage: a bureau without a feed (404) would otherwise log a line every interval.
      failuresInARow += 1;
      const level = failuresInARow === 1 ? 'warn' : 'debug';
      ctx.logger[level]({ err: error, failuresInARow }, 'bureau trigger feed read failed; will retry');
    }
    return false;
  });
};
