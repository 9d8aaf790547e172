import { instantInput, prefixedId, ZPageQuery, ZRequestId, ZTimestamp, ZUserId } from '../common.ts';
import { z } from '../zod.ts';

/** What the audit trail records (docs/partner/audit.md says when each is written). */
export const AUDIT_EVENT_TYPES = [
  'credit_data.read',
  'personal_data.read',
  'bureau.pull',
  'credit_file.recorded',
  'consent.given',
  'consent.withdrawn',
  'token.minted',
  'user.deleted',
  'user.purged',
  'webhook.secret_rotated',
] as const;
export type TAuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
export const ZAuditEventType = z
  .enum(AUDIT_EVENT_TYPES, `must be one of ${AUDIT_EVENT_TYPES.join(', ')}`)
  .meta({ id: 'AuditEventType', example: 'credit_data.read' });

export const AUDIT_ACTOR_KINDS = ['client', 'user_token', 'widget', 'job'] as const;
export type TAuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const ZAuditEventId = prefixedId('aud', 'aud_4Rt7yU9iO2pA5sD8fG1h');

export const ZAuditEvent = z
  .object({
    eventId: ZAuditEventId,
    sequence: z.number().int().min(1).meta({ description: 'Position in your trail: 1, 2, 3 … with no gaps.' }),
    type: ZAuditEventType,
    actor: z
      .object({
        kind: z.enum(AUDIT_ACTOR_KINDS).meta({
          description:
            '`client`: your access token; `user_token`: a user token sent as a bearer token; `widget`: the widget ' +
            'session of a user; `job`: our own scheduled work (monitoring).',
        }),
        id: z.string().meta({ description: 'Your client id, the user id of a user token, or the job name.' }),
      })
      .meta({ id: 'AuditActor' }),
    userId: ZUserId.nullable().meta({ description: 'The user the entry is about, if any.' }),
    requestId: ZRequestId.nullable().meta({ description: 'The `meta.requestId` of the API request, if any.' }),
    subject: z.record(z.string(), z.string()).meta({
      description: 'Ids only: the operation (`operationId`) and the resources it touched. Never personal data.',
      example: { operationId: 'getCreditScore' },
    }),
    occurredAt: ZTimestamp,
    previousHash: z.string().meta({ description: 'SHA-256 (hex) of the previous entry; 64 zeros for the first.' }),
    hash: z.string().meta({ description: 'SHA-256 (hex) of this entry, previousHash included.' }),
  })
  .meta({ id: 'AuditEvent' });
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

export const ZListAuditEventsQuery = z.strictObject({
  ...ZPageQuery.shape,
  userId: ZUserId.optional().meta({ description: 'Only entries about this user.' }),
  type: ZAuditEventType.optional(),
  from: instantInput().optional().meta({ description: 'Only entries at or after this instant.' }),
  to: instantInput().optional().meta({ description: 'Only entries strictly before this instant.' }),
});
export type TListAuditEventsQuery = z.infer<typeof ZListAuditEventsQuery>;
