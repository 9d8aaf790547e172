import { defineOperation } from '../operation.ts';
import { EVENT_LIST_DAYS, ZEventIdParams, ZListEventsQuery } from '../resources/event-log.ts';
import { ZEventEnvelope } from '../resources/events.ts';

export const listEvents = defineOperation({
  operationId: 'listEvents',
  method: 'get',
  path: '/v1/events',
  tag: 'Webhooks',
  summary: 'List events',
  description:
    `Your events of the last ${EVENT_LIST_DAYS} days, newest first, each exactly as webhooks deliver it (the same ` +
    'envelope and `id`), whether or not a subscription received it: reconcile after an outage. Filter by `type`, ' +
    '`userId` and `createdAfter`/`createdBefore`. Follow them as they happen (what `npx credit listen` does): ' +
    '`sort=-recorded&limit=1` answers the latest, then `after=<the last id you processed>&wait=20` answers the ones ' +
    'recorded after it, oldest first, holding the request up to 20 s while there are none. An event is listed in that ' +
    'order once every transaction that began before it has ended (usually within milliseconds).',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { query: ZListEventsQuery },
  success: { status: 200, description: 'A page of events.', data: ZEventEnvelope, list: true },
  errors: [],
});

export const getEvent = defineOperation({
  operationId: 'getEvent',
  method: 'get',
  path: '/v1/events/{eventId}',
  tag: 'Webhooks',
  summary: 'Get an event',
  description: `One of your events of the last ${EVENT_LIST_DAYS} days, as webhooks deliver it.`,
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZEventIdParams },
  success: { status: 200, description: 'The event.', data: ZEventEnvelope },
  errors: ['NOT_FOUND'],
});
