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
  'client.secret_rotated',
  'offer.changed',
  'console.link_created',
  'console.signed_in',
  'console.signed_out',
  'console.request',
] as const;
export type TAuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
export const ZAuditEventType = z
  .enum(AUDIT_EVENT_TYPES, `must be one of ${AUDIT_EVENT_TYPES.join(', ')}`)
  .meta({ id: 'AuditEventType', example: 'credit_data.read' });

export const AUDIT_ACTOR_KINDS = ['client', 'user_token', 'widget', 'job', 'staff', 'operator'] as const;
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
            'session of a user; `job`: our own scheduled work (monitoring); `staff`: one of your staff in the console; ' +
            '`operator`: our operator, minting a console link with `pnpm clients console`.',
        }),
        id: z.string().meta({
          description:
            'Your client id, the user id of a user token, the job name, or the staff member’s id (your own, as the ' +
            'console link named them).',
        }),
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

/** Why a chain check stopped, in the order a walk from the checkpoint meets them. */
export const AUDIT_CHAIN_BREAK_REASONS = [
  'checkpoint_signature',
  'missing_entry',
  'entry_altered',
  'previous_hash_mismatch',
  'head_mismatch',
] as const;

export const AUDIT_VERIFY_FROM = ['checkpoint', 'start'] as const;

export const ZVerifyAuditTrailQuery = z
  .strictObject({
    from: z
      .enum(AUDIT_VERIFY_FROM, `must be one of ${AUDIT_VERIFY_FROM.join(', ')}`)
      .optional()
      .meta({
        description:
          '`checkpoint` (the default): re-hash only the entries recorded since the newest checkpoint an earlier check ' +
          'left, after checking that checkpoint; `start`: re-hash every entry kept, comparing each checkpoint with its ' +
          'entry on the way (slower: it reads your whole trail).',
        example: 'start',
      }),
  })
  .meta({ id: 'VerifyAuditTrailQuery' });
export type TVerifyAuditTrailQuery = z.infer<typeof ZVerifyAuditTrailQuery>;

export const ZAuditChainVerification = z
  .object({
    clientId: z
      .string()
      .meta({ description: 'Your client id: a check covers your own trail only.', example: 'cli_live_9aF3kQ2xLm7PzR4t' }),
    ok: z.boolean().meta({ description: 'Every link from `from` to `lastSeq` holds and the chain ends at its head.' }),
    checked: z.number().int().min(0).meta({ description: 'Entries re-hashed after `from`.', example: 1200 }),
    from: z
      .number()
      .int()
      .min(0)
      .meta({
        description:
          'The sequence the check started after: the newest checkpoint an earlier check left (unless `from=start` ' +
          'was asked), else that of the last entry removed by retention, or 0.',
        example: 0,
      }),
    lastSeq: z.number().int().min(0).meta({ description: 'The last sequence found intact.', example: 1200 }),
    firstBroken: z
      .object({
        reason: z.enum(AUDIT_CHAIN_BREAK_REASONS).meta({
          description:
            '`entry_altered`: the entry no longer hashes to its stored hash, or no longer has the hash an earlier ' +
            'check recorded for it (it or an entry before it was rewritten, hashes and all); `previous_hash_mismatch`: it does not ' +
            'link to the entry before it; `missing_entry`: sequence `seq` is absent; `head_mismatch`: the chain does ' +
            'not end where its head says; `checkpoint_signature`: the retention checkpoint is not signed by us.',
        }),
        seq: z.number().int().min(0).meta({ description: 'Where the chain breaks.' }),
        found: z.number().int().min(1).nullable().optional().meta({
          description: '`missing_entry` only: the next sequence present, or null when the tail is gone.',
        }),
        entryId: ZAuditEventId.optional().meta({
          description: '`entry_altered` and `previous_hash_mismatch`: the entry at `seq`.',
        }),
      })
      .optional()
      .meta({ id: 'AuditChainBreak', description: 'The first broken link; absent when `ok`.' }),
  })
  .meta({ id: 'AuditChainVerification' });
export type TAuditChainVerification = z.infer<typeof ZAuditChainVerification>;
