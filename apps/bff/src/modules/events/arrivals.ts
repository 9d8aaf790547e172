import type { AppContext } from '../../context.ts';
import { OUTBOX_CHANNEL } from '../../outbox/outbox.ts';

/** Commits in a burst wake the held requests once: each then asks the database again, so a burst costs one query each. */
const COALESCE_MS = 50;

/**
 * Tells held `GET /v1/events?wait=` requests that events committed: one LISTEN on the outbox channel per app,
 * opened by the first long poll (the NOTIFY every event's transaction raises, outbox.ts). Without LISTEN, or while it
 * is reconnecting, the requests find new events by asking again at their next re-check.
 */
export class EventArrivals {
  readonly #waiters = new Set<() => void>();
  #wakeScheduled = false;
  readonly listening: Promise<void>;

  constructor(ctx: Pick<AppContext, 'db' | 'logger'>) {
    const { db, logger } = ctx;
    this.listening = db.listen
      ? db
          .listen(OUTBOX_CHANNEL, () => this.#scheduleWake())
          .then(
            () => undefined,
            (error: unknown) => logger.warn({ err: error }, 'cannot LISTEN for new events; long polls re-check instead'),
          )
      : Promise.resolve();
  }

  /** A promise settled by the next commit of an event after this call; `cancel` forgets it. */
  next(): { arrived: Promise<void>; cancel(): void } {
    let wake = () => {};
    const arrived = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.#waiters.add(wake);
    return { arrived, cancel: () => this.#waiters.delete(wake) };
  }

  #scheduleWake(): void {
    if (this.#wakeScheduled) return;
    this.#wakeScheduled = true;
    // A fact about this process's load, not a rule of the product's time: a real timer, unaffected by test clocks.
    setTimeout(() => {
      this.#wakeScheduled = false;
      const waiters = [...this.#waiters];
      this.#waiters.clear();
      for (const wake of waiters) wake();
    }, COALESCE_MS).unref();
  }
}

/** The app's arrivals, listening from the first call on (the listener ends with `db.close()`). */
export const eventArrivals = async (ctx: AppContext): Promise<EventArrivals> => {
  ctx.services.eventArrivals ??= new EventArrivals(ctx);
  await ctx.services.eventArrivals.listening;
  return ctx.services.eventArrivals;
};
