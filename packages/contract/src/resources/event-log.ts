import { ZCreatedWindowQuery, ZEventId, ZPageQuery, ZUserId } from '../common.ts';
import { z } from '../zod.ts';
import { ZEventType } from './webhooks.ts';

/** How long events stay listed by `GET /v1/events` (Stripe's window; the outbox keeps them as long). */
export const EVENT_LIST_DAYS = 30;

export const ZListEventsQuery = z.strictObject({
  ...ZPageQuery.shape,
  ...ZCreatedWindowQuery.shape,
  type: ZEventType.optional().meta({ description: 'Only events of this type.' }),
  userId: ZUserId.optional().meta({ description: 'Only events about this user (`data.userId`).' }),
});
export type TListEventsQuery = z.infer<typeof ZListEventsQuery>;

export const ZEventIdParams = z.strictObject({ eventId: ZEventId });
