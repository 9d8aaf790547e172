import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_LIST_DAYS, type TEventEnvelope, type TListEventsQuery } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { notFound, validationError } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import { eventEnvelope } from '../../outbox/outbox.ts';
import { eventArrivals } from './arrivals.ts';
import { type EventRow, findClientEvent, listClientEvents, listRecordedEvents, recordedPositionOf } from './repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How often a held request asks again without being woken: an event held back by an older transaction still running,
 * or a NOTIFY lost while the listener reconnects, is answered within this.
 */
const RECHECK_MS = 1000;

/** Stripe's window: events of the last EVENT_LIST_DAYS days (the outbox keeps them as long). */
const oldestListed = (ctx: AppContext) => new Date(ctx.clock.now().getTime() - EVENT_LIST_DAYS * DAY_MS);

const toEnvelope = (row: EventRow) =>
  eventEnvelope({ id: row.id, type: row.type, createdAt: row.created_at, data: row.data }) as TEventEnvelope;

type Page = Awaited<ReturnType<typeof listClientEvents>>;

/** `after` and `wait` follow the recorded order: a 400 naming them with any other sort. */
const sortOf = (query: TListEventsQuery) => {
  const sort = query.sort ?? (query.after !== undefined || query.wait !== undefined ? 'recorded' : '-createdAt');
  if (sort !== 'recorded') {
    for (const field of ['after', 'wait'] as const) {
      if (query[field] !== undefined) {
        throw validationError([{ field: `query.${field}`, message: `follows the recorded order: use it with sort=recorded` }]);
      }
    }
  }
  return sort;
};

/**
 * A page of the caller's events. With `wait`, an empty page of the recorded order is held until an event is recorded
 * (woken by its commit, re-checked every RECHECK_MS), `wait` seconds at most, or until the caller hangs up (`signal`).
 * Each pass is one indexed read of the events after the position, so a held request costs a query a second at most.
 */
export const listEvents = async (ctx: AppContext, caller: Caller, query: TListEventsQuery, signal?: AbortSignal) => {
  const sort = sortOf(query);
  const cursors = cursorsOf(ctx);
  let page: Page;
  if (sort === '-createdAt') {
    page = await listClientEvents(ctx.db, caller.clientId, oldestListed(ctx), query, cursors);
  } else {
    const after = query.after === undefined ? undefined : await recordedPositionOf(ctx.db, caller.clientId, query.after);
    if (query.after !== undefined && !after) {
      throw validationError([{ field: 'query.after', message: 'is not the id of one of your events' }]);
    }
    const read = () =>
      listRecordedEvents(ctx.db, caller.clientId, oldestListed(ctx), query, { ascending: sort === 'recorded', after, cursors });
    // How long a request is held is a fact about the connection, not a rule of the product's time (as a delivery's
    // 30 s deadline): real time, which a test clock neither stops nor moves.
    const deadline = performance.now() + (query.wait ?? 0) * 1000;
    const arrivals = query.wait ? await eventArrivals(ctx) : undefined;
    for (;;) {
      // Armed before reading, so an event committed between the read and the wait still wakes it.
      const next = arrivals?.next();
      page = await read();
      const left = deadline - performance.now();
      if (!next || page.items.length > 0 || left <= 0 || signal?.aborted) {
        next?.cancel();
        break;
      }
      const woken = new AbortController();
      const recheck = sleep(Math.min(RECHECK_MS, left), undefined, {
        signal: signal ? AbortSignal.any([signal, woken.signal]) : woken.signal,
      }).catch(() => undefined);
      await Promise.race([next.arrived, recheck]);
      next.cancel();
      woken.abort();
    }
  }
  return { items: page.items.map(toEnvelope), pagination: page.pagination };
};

export const getEvent = async (ctx: AppContext, caller: Caller, eventId: string): Promise<TEventEnvelope> => {
  const row = await findClientEvent(ctx.db, caller.clientId, oldestListed(ctx), eventId);
  if (!row) throw notFound('Event');
  return toEnvelope(row);
};
