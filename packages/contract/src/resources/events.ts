import { prefixedId, ZAlertId, ZClickId, ZDate, ZEventId, ZOfferId, ZTimestamp, ZUserId } from '../common.ts';
import { z } from '../zod.ts';
import { ZAlertSeverity, ZAlertType } from './alerts.ts';
import { ZConsentId } from './consent.ts';
import { ZScoreValue } from './credit.ts';
import { ZOfferType, ZOutcomeStage } from './offers.ts';
import { ZClockId, ZPausedUsersOnClock } from './sandbox-clocks.ts';
import { ZUserStatus } from './users.ts';
import type { TEventType } from './webhooks.ts';

export { EVENT_TYPES, type TEventType, ZEventType } from './webhooks.ts';

/** What each event type means, as partners read it in the reference. */
export const EVENT_DESCRIPTIONS = {
  'user.enrolled': 'A user was enrolled.',
  'user.verified': 'A user passed identity verification and is now `active`.',
  'user.deleted': 'A user was deleted.',
  'score.updated': 'A credit score was refreshed.',
  'score.changed': 'A credit score changed by more than 10 points (sent together with `score.updated`).',
  'alert.created': 'A new credit-monitoring alert was generated.',
  'alert.email.sent':
    'An alert e-mail went to the customer under your name: one alert, or a day’s digest (docs/partner/alert-emails.md).',
  'alert.email.suppressed':
    'An alert e-mail was not sent: when its turn came the customer was deleted, had no current consent or had unsubscribed, or you turned alert e-mails off.',
  'alert.email.failed': 'An alert e-mail could not be handed to the mail server after its last retry; it is not sent.',
  'offer.clicked': 'A user clicked an offer.',
  'offer.converted': 'An application from an offer click reached a stage (`applied`, `approved`, `declined`, `funded`).',
  'sandbox.clock.ready':
    'Sandbox: a test clock finished advancing; every period its users skipped has run and it is `ready` at `frozenTime`.',
  'consent.withdrawn':
    'The consumer withdrew their consent (in the widget, or you on their behalf): nothing is pulled and monitoring is paused until they consent again.',
} as const satisfies Record<TEventType, string>;

const who = {
  userId: ZUserId,
  externalUserId: z.string().meta({ description: 'Your own id for the user.', example: 'cust-001234' }),
};

const scoreFields = {
  ...who,
  score: ZScoreValue,
  previousScore: ZScoreValue.nullable().meta({ description: 'Null for the first score on file.' }),
  change: z.number().int().meta({ description: '`score − previousScore`; 0 when there is no previous score.', example: 14 }),
  scoreDate: ZDate,
};

const offerFields = {
  ...who,
  offerId: ZOfferId,
  offerType: ZOfferType,
  provider: z.string().meta({ example: 'Maple Bank' }),
  clickId: ZClickId,
  offerVersion: z
    .number()
    .int()
    .min(1)
    .nullable()
    .meta({ description: 'The version of the offer the customer saw; null for clicks recorded before versions.' }),
};

export const ZUserEnrolledData = z
  .object({ ...who, email: z.string(), status: ZUserStatus })
  .meta({ id: 'UserEnrolledEventData' });
export const ZUserVerifiedData = z.object({ ...who, verifiedAt: ZTimestamp }).meta({ id: 'UserVerifiedEventData' });
export const ZUserDeletedData = z.object({ ...who, deletedAt: ZTimestamp }).meta({ id: 'UserDeletedEventData' });
export const ZScoreUpdatedData = z.object(scoreFields).meta({ id: 'ScoreUpdatedEventData' });
export const ZScoreChangedData = z
  .object({ ...scoreFields, direction: z.enum(['up', 'down']).meta({ example: 'up' }) })
  .meta({ id: 'ScoreChangedEventData' });
export const ZAlertCreatedData = z
  .object({
    ...who,
    alert: z.object({
      alertId: ZAlertId,
      type: ZAlertType,
      title: z.string(),
      message: z.string(),
      severity: ZAlertSeverity,
    }),
  })
  .meta({ id: 'AlertCreatedEventData' });
export const ALERT_EMAIL_MODES = ['each', 'daily_digest'] as const;
export const ALERT_EMAIL_SUPPRESSED_REASONS = [
  'user_deleted',
  'consent_withdrawn',
  'consent_expired',
  'consent_required',
  'unsubscribed',
  'alert_emails_off',
] as const;
export type TAlertEmailSuppressedReason = (typeof ALERT_EMAIL_SUPPRESSED_REASONS)[number];

/** Who and which alerts an alert e-mail was about: never the address, the name or what the alerts say. */
const alertEmailFields = {
  userId: ZUserId,
  externalUserId: z.string().nullable().meta({
    description: 'Your own id for the user; null once a deleted user’s personal data has been purged.',
    example: 'cust-001234',
  }),
  emailId: prefixedId('eml', 'eml_3Kd8sW2nQ7xV5bT1').meta({
    description: 'The e-mail: the same id in its `alert.email.sent`, `alert.email.suppressed` or `alert.email.failed`.',
  }),
  mode: z.enum(ALERT_EMAIL_MODES).meta({
    description: '`each`: an e-mail of one alert; `daily_digest`: one e-mail for the customer’s alerts of a day.',
    example: 'each',
  }),
  alertIds: z.array(ZAlertId).min(1).meta({ description: 'The alerts the e-mail announced (one for `each`).' }),
  alertCount: z.number().int().min(1).meta({ description: 'How many alerts: the length of `alertIds`.', example: 1 }),
};

export const ZAlertEmailSentData = z
  .object({
    ...alertEmailFields,
    attempts: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'Hand-overs to the mail server it took, this one included.', example: 1 }),
    sentAt: ZTimestamp,
  })
  .meta({ id: 'AlertEmailSentEventData' });
export const ZAlertEmailSuppressedData = z
  .object({
    ...alertEmailFields,
    reason: z.enum(ALERT_EMAIL_SUPPRESSED_REASONS).meta({
      description:
        'Why, as found when its turn came: `user_deleted`; `consent_withdrawn`, `consent_expired` or `consent_required` (no current consent); `unsubscribed` (the customer’s one-click unsubscribe); `alert_emails_off` (your setting).',
      example: 'consent_withdrawn',
    }),
  })
  .meta({ id: 'AlertEmailSuppressedEventData' });
export const ZAlertEmailFailedData = z
  .object({
    ...alertEmailFields,
    attempts: z.number().int().min(1).meta({ example: 6 }),
    lastError: z.string().meta({
      description: 'The class of the last failure (`ECONNECTION`, `ETIMEDOUT`, `EENVELOPE 550`, …), never the server’s text.',
      example: 'ECONNECTION',
    }),
  })
  .meta({ id: 'AlertEmailFailedEventData' });
export const ZOfferClickedData = z.object(offerFields).meta({ id: 'OfferClickedEventData' });
export const ZOfferConvertedData = z
  .object({
    ...offerFields,
    stage: ZOutcomeStage,
    amount: z.number().nullable().meta({ description: 'USD approved or funded; null for the other stages.' }),
    convertedAt: ZTimestamp.meta({ description: 'When the stage happened at the bank.' }),
  })
  .meta({ id: 'OfferConvertedEventData' });
export const ZSandboxClockReadyData = z
  .object({ clockId: ZClockId, frozenTime: ZTimestamp, pausedUsers: ZPausedUsersOnClock })
  .meta({ id: 'SandboxClockReadyEventData' });

export const ZConsentWithdrawnData = z
  .object({ ...who, consentId: ZConsentId, withdrawnAt: ZTimestamp })
  .meta({ id: 'ConsentWithdrawnEventData' });

/** `data` schema of each event type. */
export const EVENT_DATA_SCHEMAS = {
  'user.enrolled': ZUserEnrolledData,
  'user.verified': ZUserVerifiedData,
  'user.deleted': ZUserDeletedData,
  'score.updated': ZScoreUpdatedData,
  'score.changed': ZScoreChangedData,
  'alert.created': ZAlertCreatedData,
  'alert.email.sent': ZAlertEmailSentData,
  'alert.email.suppressed': ZAlertEmailSuppressedData,
  'alert.email.failed': ZAlertEmailFailedData,
  'offer.clicked': ZOfferClickedData,
  'offer.converted': ZOfferConvertedData,
  'sandbox.clock.ready': ZSandboxClockReadyData,
  'consent.withdrawn': ZConsentWithdrawnData,
} as const satisfies Record<TEventType, z.ZodObject>;

export type TEventData<T extends TEventType> = z.infer<(typeof EVENT_DATA_SCHEMAS)[T]>;

const eventOf = <const T extends TEventType>(type: T, id: string) =>
  z
    .object({
      id: ZEventId.meta({ description: 'Stable across retries: use it to drop duplicate deliveries.' }),
      type: z.literal(type),
      createdAt: ZTimestamp,
      data: EVENT_DATA_SCHEMAS[type],
    })
    .meta({ id, description: EVENT_DESCRIPTIONS[type] });

/** The delivered body of each event type. */
export const EVENT_ENVELOPE_SCHEMAS = {
  'user.enrolled': eventOf('user.enrolled', 'UserEnrolledEvent'),
  'user.verified': eventOf('user.verified', 'UserVerifiedEvent'),
  'user.deleted': eventOf('user.deleted', 'UserDeletedEvent'),
  'score.updated': eventOf('score.updated', 'ScoreUpdatedEvent'),
  'score.changed': eventOf('score.changed', 'ScoreChangedEvent'),
  'alert.created': eventOf('alert.created', 'AlertCreatedEvent'),
  'alert.email.sent': eventOf('alert.email.sent', 'AlertEmailSentEvent'),
  'alert.email.suppressed': eventOf('alert.email.suppressed', 'AlertEmailSuppressedEvent'),
  'alert.email.failed': eventOf('alert.email.failed', 'AlertEmailFailedEvent'),
  'offer.clicked': eventOf('offer.clicked', 'OfferClickedEvent'),
  'offer.converted': eventOf('offer.converted', 'OfferConvertedEvent'),
  'sandbox.clock.ready': eventOf('sandbox.clock.ready', 'SandboxClockReadyEvent'),
  'consent.withdrawn': eventOf('consent.withdrawn', 'ConsentWithdrawnEvent'),
} as const satisfies Record<TEventType, z.ZodObject>;

export const ZEventEnvelope = z
  .discriminatedUnion('type', [
    EVENT_ENVELOPE_SCHEMAS['user.enrolled'],
    EVENT_ENVELOPE_SCHEMAS['user.verified'],
    EVENT_ENVELOPE_SCHEMAS['user.deleted'],
    EVENT_ENVELOPE_SCHEMAS['score.updated'],
    EVENT_ENVELOPE_SCHEMAS['score.changed'],
    EVENT_ENVELOPE_SCHEMAS['alert.created'],
    EVENT_ENVELOPE_SCHEMAS['alert.email.sent'],
    EVENT_ENVELOPE_SCHEMAS['alert.email.suppressed'],
    EVENT_ENVELOPE_SCHEMAS['alert.email.failed'],
    EVENT_ENVELOPE_SCHEMAS['offer.clicked'],
    EVENT_ENVELOPE_SCHEMAS['offer.converted'],
    EVENT_ENVELOPE_SCHEMAS['sandbox.clock.ready'],
    EVENT_ENVELOPE_SCHEMAS['consent.withdrawn'],
  ])
  .meta({ id: 'EventEnvelope', description: 'Body of a webhook delivery; `data` depends on `type`.' });
export type TEventEnvelope = z.infer<typeof ZEventEnvelope>;
/** The envelope of one event type, e.g. `TEventEnvelopeOf<'score.changed'>`. */
export type TEventEnvelopeOf<T extends TEventType> = Extract<TEventEnvelope, { type: T }>;
