import { sortQuery, ZAlertId, ZCreatedWindowQuery, ZDate, ZPageQuery, ZTimestamp, ZUserId } from '../common.ts';
import { z } from '../zod.ts';

export const ALERT_TYPES = [
  'score_change',
  'new_inquiry',
  'new_account',
  'account_closed',
  'late_payment',
  'high_utilization',
  'address_change',
  'fraud_alert',
] as const;
export type TAlertType = (typeof ALERT_TYPES)[number];
export const ZAlertType = z
  .enum(ALERT_TYPES, `must be one of ${ALERT_TYPES.join(', ')}`)
  .meta({ id: 'AlertType', example: 'score_change' });

export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const ZAlertSeverity = z
  .enum(ALERT_SEVERITIES)
  .meta({ id: 'AlertSeverity', description: '`critical` is used for fraud alerts.' });

export const ALERT_STATUSES = ['unread', 'read'] as const;
export const ZAlertStatus = z
  .enum(ALERT_STATUSES)
  .meta({ id: 'AlertStatus', description: 'A new alert is `unread`; `PATCH` with `{status: "read"}` marks it read.' });

/** `data` of a `score_change` alert. */
export const ZScoreChangeAlertData = z
  .object({
    previousScore: z.number().int().meta({ example: 698 }),
    newScore: z.number().int().meta({ example: 712 }),
    change: z.number().int().meta({ description: '`newScore − previousScore`.', example: 14 }),
  })
  .meta({ id: 'ScoreChangeAlertData' });

/** `data` of a `new_inquiry` alert. */
export const ZNewInquiryAlertData = z
  .object({
    inquirySource: z.string().meta({ example: 'Contoso Auto Finance' }),
    inquiryDate: ZDate,
  })
  .meta({ id: 'NewInquiryAlertData' });

/** The `data` shapes the contract pins down; the other types carry free-form, type-specific fields. */
export const ALERT_DATA_SCHEMAS = {
  score_change: ZScoreChangeAlertData,
  new_inquiry: ZNewInquiryAlertData,
} as const satisfies Partial<Record<TAlertType, z.ZodObject>>;

export const ZAlert = z
  .object({
    alertId: ZAlertId,
    type: ZAlertType,
    title: z.string().meta({ example: 'Your score went up 14 points' }),
    message: z.string(),
    severity: ZAlertSeverity,
    status: ZAlertStatus,
    createdAt: ZTimestamp,
    data: z.record(z.string(), z.unknown()).meta({
      description:
        'Type-specific details. `score_change`: {previousScore, newScore, change} (integers). ' +
        '`new_inquiry`: {inquirySource (string), inquiryDate (YYYY-MM-DD)}. Other types: descriptive fields ' +
        'that may grow over time; ignore the ones you do not know.',
      example: { previousScore: 698, newScore: 712, change: 14 },
    }),
  })
  .meta({ id: 'Alert' });
export type TAlert = z.infer<typeof ZAlert>;

export const ALERT_STATUS_FILTERS = ['unread', 'read', 'all'] as const;
export const ALERT_SORT_FIELDS = ['createdAt'] as const;
export const ZListAlertsQuery = z.strictObject({
  ...ZPageQuery.shape,
  ...ZCreatedWindowQuery.shape,
  status: z
    .enum(ALERT_STATUS_FILTERS, `must be one of ${ALERT_STATUS_FILTERS.join(', ')}`)
    .default('all')
    .meta({ description: '`unread`, `read` or `all` (default).' }),
  type: ZAlertType.optional(),
  sort: sortQuery(ALERT_SORT_FIELDS, '-createdAt'),
});
export type TListAlertsQuery = z.infer<typeof ZListAlertsQuery>;

export const ZUpdateAlertInput = z.strictObject({ status: z.literal('read', 'must be "read"') }).meta({
  id: 'UpdateAlertInput',
  description: 'Marks the alert read. Marking an already read alert read again is allowed.',
});
export type TUpdateAlertInput = z.infer<typeof ZUpdateAlertInput>;

export const ZUserAlertParams = z.strictObject({ userId: ZUserId, alertId: ZAlertId });
