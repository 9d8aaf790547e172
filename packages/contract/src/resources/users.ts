import { dateInput, sortQuery, ZCreatedWindowQuery, ZDate, ZPageQuery, ZTimestamp, ZUserId } from '../common.ts';
import { ZErrorCode, ZErrorDetail } from '../errors.ts';
import { WIDGET_LOCALES } from '../widget-protocol.ts';
import { z } from '../zod.ts';
import { ZConsentSummary, ZEnrollmentConsent } from './consent.ts';

export const US_STATE_CODES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'AS',
  'GU',
  'MP',
  'PR',
  'VI',
] as const;

export const USER_STATUSES = ['pending_verification', 'active', 'locked'] as const;
export const ZUserStatus = z.enum(USER_STATUSES).meta({
  id: 'UserStatus',
  description:
    '`pending_verification` after enrolment → `active` after identity verification passes → `locked` for 24 h after 3 failed verification sessions.',
});

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const ZExternalUserId = text(255).meta({ description: 'Your own id for this user.', example: 'cust-001234' });
export const ZEmail = z.email('must be a valid e-mail address').max(254).meta({ example: 'jane.doe@example.com' });
export const ZPersonName = text(100);
export const ZSsnLast4 = z
  .string()
  .regex(/^\d{4}$/, 'must be exactly 4 digits')
  .meta({
    description: 'Last 4 digits of the SSN only. Sandbox: `0000` freezes the file, `9999` fails verification.',
    example: '1234',
  });
export const ZDateOfBirth = dateInput().meta({
  description: 'YYYY-MM-DD; the person must be 18–120 years old.',
  example: '1985-04-12',
});
// Punctuation escaped inside the class so the documented pattern also compiles as a Unicode-sets (`v`) expression.
const PHONE_PATTERN = String.raw`^\+?[0-9][0-9 \(\)\.\-]{6,19}$`;
export const ZPhone = z
  .string()
  .regex(new RegExp(PHONE_PATTERN), 'must be a phone number such as +1 555 010 0100')
  .meta({ example: '+1 555 010 0100' });

export const ZAddress = z
  .strictObject({
    street: text(200).meta({ example: '123 Main St' }),
    city: text(100).meta({ example: 'Springfield' }),
    state: z.enum(US_STATE_CODES, 'must be a two-letter US state code').meta({ example: 'IL' }),
    zipCode: z
      .string()
      .regex(/^\d{5}(-\d{4})?$/, 'must be 12345 or 12345-6789')
      .meta({ example: '62701' }),
  })
  .meta({ id: 'Address' });

/** The customer's language, for what reaches them outside the widget: their alert e-mails. */
export const ZCustomerLocale = z.enum(WIDGET_LOCALES, `must be one of ${WIDGET_LOCALES.join(', ')}`).meta({
  description:
    'The language of the customer’s alert e-mails (docs/partner/alert-emails.md): `en` (the default) or `es`. The widget ' +
    'sends the language it shows, at enrolment and whenever it opens.',
  example: 'es',
});

/** Identity fields a person provides themselves; the rest comes from the partner or the user token. */
export const ZIdentityInput = z.strictObject({
  ssn: ZSsnLast4,
  dateOfBirth: ZDateOfBirth,
  address: ZAddress,
  phone: ZPhone.optional(),
});

export const ZEnrollmentInput = z
  .strictObject({
    externalUserId: ZExternalUserId,
    email: ZEmail,
    firstName: ZPersonName.meta({ example: 'Jane' }),
    lastName: ZPersonName.meta({ example: 'Doe' }),
    ...ZIdentityInput.shape,
    consent: ZEnrollmentConsent.optional(),
    locale: ZCustomerLocale.optional(),
  })
  .meta({ id: 'EnrollmentInput' });
export type TEnrollmentInput = z.infer<typeof ZEnrollmentInput>;

/** With a user token, externalUserId, e-mail and names come from the token. */
export const ZSelfEnrollmentInput = ZIdentityInput.extend({
  consent: ZEnrollmentConsent.optional(),
  locale: ZCustomerLocale.optional(),
}).meta({
  id: 'SelfEnrollmentInput',
});
export type TSelfEnrollmentInput = z.infer<typeof ZSelfEnrollmentInput>;

export const ZEnrollRequest = z.union([ZEnrollmentInput, ZSelfEnrollmentInput]);

export const ZEnrolledUser = z
  .object({
    userId: ZUserId,
    externalUserId: z.string(),
    status: ZUserStatus,
    createdAt: ZTimestamp,
    consent: ZConsentSummary.meta({
      description: 'The consent recorded with the enrolment; `method: sandbox_default` when a sandbox enrolment sent none.',
    }),
  })
  .meta({ id: 'EnrolledUser' });
export type TEnrolledUser = z.infer<typeof ZEnrolledUser>;

export const MONITORING_STATUSES = ['active', 'paused', 'stopped'] as const;
export const ZPausedReason = z.enum([
  'consent_required',
  'consent_withdrawn',
  'consent_expired',
  'not_verified',
  'verification_locked',
  'credit_frozen',
]);

/** A user whose monitoring is paused, and why: what a test clock lists after an advance. */
export const ZPausedUser = z.object({ userId: ZUserId, reason: ZPausedReason }).meta({ id: 'PausedUser' });

export const ZMonitoring = z
  .object({
    status: z.enum(MONITORING_STATUSES).meta({
      description:
        '`active`: the file is refreshed every monitoring period (default 30 days). `paused`: nothing is pulled until ' +
        'the cause ends (no current consent — never given or superseded by new terms, withdrawn, or expired —, identity ' +
        'not verified yet, verification locked, or the file frozen at the bureau); ' +
        '`pausedReason` says which. `stopped`: the user was deleted; monitoring never resumes.',
    }),
    pausedReason: ZPausedReason.nullable().meta({ description: 'Why monitoring is `paused`; null otherwise.' }),
    lastRefreshedAt: ZTimestamp.nullable().meta({
      description:
        'When the credit file was last pulled and compared (a scheduled refresh or a refresh now); null before the first.',
    }),
    nextRefreshAt: ZTimestamp.nullable().meta({
      description:
        'When the next scheduled refresh is due (for a frozen file: when the freeze is next checked); null while ' +
        'the user is not verified.',
    }),
    refreshAvailableAt: ZTimestamp.nullable().meta({
      description:
        'When `POST …/credit-score/refresh` is next allowed (one per user per 24 hours); null when allowed now or not applicable.',
    }),
  })
  .meta({ id: 'Monitoring' });
export type TMonitoring = z.infer<typeof ZMonitoring>;

export const ZUser = z
  .object({
    userId: ZUserId,
    externalUserId: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    status: ZUserStatus,
    enrolledAt: ZTimestamp,
    createdAt: ZTimestamp,
    lastScoreDate: ZDate.nullable().meta({ description: 'Date of the latest score on file; null before the first score.' }),
    monitoring: ZMonitoring,
  })
  .meta({ id: 'User' });
export type TUser = z.infer<typeof ZUser>;

export const ZDeletedUser = z
  .object({
    userId: ZUserId,
    deletedAt: ZTimestamp,
    message: z.string(),
  })
  .meta({ id: 'DeletedUser' });
export type TDeletedUser = z.infer<typeof ZDeletedUser>;

export const MAX_BATCH_USERS = 1000;
export const ZBatchEnrollRequest = z
  .strictObject({
    users: z
      .array(z.unknown())
      .min(1, 'must contain at least one user')
      .max(MAX_BATCH_USERS, `must contain at most ${MAX_BATCH_USERS} users`)
      .meta({ description: `1–${MAX_BATCH_USERS} enrollment inputs; each is validated and enrolled on its own.` }),
  })
  .meta({ id: 'BatchEnrollRequest' });

export const ZBatchFailure = z
  .object({
    index: z.number().int().min(0).meta({ description: 'Position of the item in the request.' }),
    externalUserId: z.string().nullable(),
    error: z.object({ code: ZErrorCode, message: z.string(), details: z.array(ZErrorDetail).optional() }),
  })
  .meta({ id: 'BatchFailure' });

export const ZBatchEnrollResult = z
  .object({
    successful: z.array(z.object({ externalUserId: z.string(), userId: ZUserId, status: ZUserStatus, consent: ZConsentSummary })),
    failed: z.array(ZBatchFailure),
  })
  .meta({ id: 'BatchEnrollResult' });
export type TBatchEnrollResult = z.infer<typeof ZBatchEnrollResult>;

export const ZBatchMeta = z.object({
  total: z.number().int(),
  successful: z.number().int(),
  failed: z.number().int(),
});

export const USER_SORT_FIELDS = ['createdAt', 'lastName', 'firstName', 'email', 'status'] as const;
export const ZListUsersQuery = z.strictObject({
  ...ZPageQuery.shape,
  ...ZCreatedWindowQuery.shape,
  status: ZUserStatus.optional(),
  externalUserId: z.string().max(255).optional().meta({ description: 'Find the user enrolled under your own id.' }),
  sort: sortQuery(USER_SORT_FIELDS, '-createdAt'),
});
export type TListUsersQuery = z.infer<typeof ZListUsersQuery>;

export const ZUserIdParams = z.strictObject({ userId: ZUserId });
