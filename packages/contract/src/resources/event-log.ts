import { ZCreatedWindowQuery, ZEventId, ZPageQuery, ZUserId } from '../common.ts';
import { z } from '../zod.ts';
import { ZEventType } from './webhooks.ts';

/** How long events stay listed by `GET /v1/events` (Stripe's window; the outbox keeps them as long). */
export const EVENT_LIST_DAYS = 30;

/** The longest `wait` of `GET /v1/events`: below the idle timeouts of common proxies (as SQS's 20 s long poll). */
export const EVENT_WAIT_MAX_SECONDS = 20;

/**
 * `-createdAt`: newest first by the envelope's `createdAt`. `recorded`: the order events became visible, oldest first,
 * which is what following them needs: a test clock dates events at its own time, and events recorded together share a
 * `createdAt`, so only this order never skips or repeats one. `-recorded`: the same, newest first.
 */
export const EVENT_SORTS = ['-createdAt', 'recorded', '-recorded'] as const;

export const ZListEventsQuery = z.strictObject({
  ...ZPageQuery.shape,
  ...ZCreatedWindowQuery.shape,
  type: ZEventType.optional().meta({ description: 'Only events of this type.' }),
  userId: ZUserId.optional().meta({ description: 'Only events about this user (`data.userId`).' }),
  sort: z
    .enum(EVENT_SORTS)
    .optional()
    .meta({
      description:
        '`-createdAt` (the default): newest first by `createdAt`. `recorded`: oldest first, in the order the events were ' +
        'recorded, which a test clock’s dates do not change and in which an event never appears before one recorded ' +
        'earlier; follow your events with it (see `after`). `-recorded`: the same order, newest first: `limit=1` answers ' +
        'the latest event to start following from.',
    }),
  after: ZEventId.optional().meta({
    description:
      'Only events recorded after this one (the `id` of an event of yours), oldest first (`sort=recorded`, which it ' +
      'implies): pass the last `id` you processed to get the next ones, without missing or repeating any.',
  }),
  wait: z.coerce
    .number()
    .int('must be a whole number')
    .min(0, `must be between 0 and ${EVENT_WAIT_MAX_SECONDS}`)
    .max(EVENT_WAIT_MAX_SECONDS, `must be between 0 and ${EVENT_WAIT_MAX_SECONDS}`)
    .optional()
    .meta({
      description:
        `With \`sort=recorded\` (or \`after\`): when no event follows yet, hold the answer up to this many seconds ` +
        `(0–${EVENT_WAIT_MAX_SECONDS}) and answer as soon as one is recorded; an empty page when none is. A long poll: ` +
        'a follower waiting 20 s at a time makes 3 requests a minute while nothing happens.',
    }),
});
export type TListEventsQuery = z.infer<typeof ZListEventsQuery>;

export const ZEventIdParams = z.strictObject({ eventId: ZEventId });
