import { EVENT_LIST_DAYS, type TEventEnvelope, type TListEventsQuery } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import { eventEnvelope } from '../../outbox/outbox.ts';
import { type EventRow, findClientEvent, listClientEvents } from './repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Stripe's window: events of the last EVENT_LIST_DAYS days (the outbox keeps them as long). */
const oldestListed = (ctx: AppContext) => new Date(ctx.clock.now().getTime() - EVENT_LIST_DAYS * DAY_MS);

const toEnvelope = (row: EventRow) =>
  eventEnvelope({ id: row.id, type: row.type, createdAt: row.created_at, data: row.data }) as TEventEnvelope;

export const listEvents = async (ctx: AppContext, caller: Caller, query: TListEventsQuery) => {
  const page = await listClientEvents(ctx.db, caller.clientId, oldestListed(ctx), query, cursorsOf(ctx));
  return { items: page.items.map(toEnvelope), pagination: page.pagination };
};

export const getEvent = async (ctx: AppContext, caller: Caller, eventId: string): Promise<TEventEnvelope> => {
  const row = await findClientEvent(ctx.db, caller.clientId, oldestListed(ctx), eventId);
  if (!row) throw notFound('Event');
  return toEnvelope(row);
};
