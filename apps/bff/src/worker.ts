import type { AppContext } from './context.ts';
import { deleteExpiredIdempotencyKeys } from './db/idempotency-keys.ts';
import { startAlertEmails } from './modules/alert-emails/service.ts';
import { deleteExpiredTokens } from './modules/auth/repo.ts';
import { pruneUnusedClocks, startClockAdvances } from './modules/clocks/service.ts';
import { eraseCreditData } from './modules/credit/service.ts';
import { startMonitoring } from './modules/monitoring/scheduler.ts';
import { startTriggerFeed } from './modules/monitoring/trigger-feed.ts';
import { backfillOfferProfiles, eraseOfferData } from './modules/offers/service.ts';
import { purgeDeletedUsers } from './modules/users/service.ts';
import { startDispatcher } from './modules/webhooks/dispatcher.ts';
import { pruneExpired } from './retention/prune.ts';

/** One sweep of the housekeeping jobs. Each is a single idempotent statement, safe on any number of workers. */
export const runHousekeeping = async (ctx: AppContext) => {
  const purgedUsers = await purgeDeletedUsers(ctx, async (tx, userIds) => {
    await eraseCreditData(tx, userIds);
    for (const userId of userIds) await eraseOfferData(tx, userId);
  });
  const expiredKeys = await deleteExpiredIdempotencyKeys(ctx.db, ctx.clock.now());
  const expiredTokens = await deleteExpiredTokens(ctx.db, ctx.clock.now());
  // Retention: each table in bounded chunks, so a sweep never holds a long transaction or a table lock.
  const pruned = await pruneExpired(ctx);
  // Sandbox test clocks unused for 30 days go with their users (a production instance has none).
  const prunedClocks = ctx.config.APP_ENV === 'sandbox' ? await pruneUnusedClocks(ctx) : 0;
  const offerProfiles = await backfillOfferProfiles(ctx);
  return { purgedUsers, expiredKeys, expiredTokens, pruned, prunedClocks, offerProfiles };
};

/** The worker role: credit monitoring, webhook delivery, alert e-mails, and housekeeping now and every PURGE_INTERVAL_SECONDS. */
export const startWorker = (ctx: AppContext): { stop(): Promise<void> } => {
  const sweep = () =>
    runHousekeeping(ctx)
      .then((result) => {
        if (
          result.purgedUsers > 0 ||
          result.prunedClocks > 0 ||
          result.offerProfiles > 0 ||
          Object.values(result.pruned).some((n) => n > 0)
        )
          ctx.logger.info(result, 'housekeeping');
      })
      .catch((error) => ctx.logger.warn({ err: error }, 'housekeeping failed; will retry next interval'));
  void sweep();
  const timer = setInterval(sweep, ctx.config.PURGE_INTERVAL_SECONDS * 1000);
  timer.unref();
  const dispatcher = startDispatcher(ctx);
  const monitoring = startMonitoring(ctx);
  const clockAdvances = startClockAdvances(ctx);
  const alertEmails = startAlertEmails(ctx);
  const triggerFeed = startTriggerFeed(ctx);
  return {
    stop: async () => {
      clearInterval(timer);
      await alertEmails.stop();
      await triggerFeed?.stop();
      await clockAdvances.stop();
      await monitoring.stop();
      await dispatcher.stop();
    },
  };
};
