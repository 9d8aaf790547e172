import { instantInput, prefixedId, sortQuery, ZPageQuery, ZTimestamp, ZUserId } from '../common.ts';
import { z } from '../zod.ts';

/**
 * Consent (issue 24): the consumer's written instruction (FCRA §604(a)(2)) every bureau pull rests on.
 * `widget`: the consumer accepted in our widget (IP and user agent taken from that request);
 * `partner_attested`: the partner collected it and says so (API enrolment or POST …/consent);
 * `sandbox_default`: a sandbox enrolment that supplied none (never in production).
 */
export const CONSENT_METHODS = ['widget', 'partner_attested', 'sandbox_default'] as const;
export const ZConsentMethod = z.enum(CONSENT_METHODS).meta({
  id: 'ConsentMethod',
  description:
    '`widget`: accepted by the consumer in the widget; `partner_attested`: collected by you and attested through the ' +
    'API; `sandbox_default`: a sandbox enrolment sent no `consent` (never in production).',
});
/** The methods a caller may send: `sandbox_default` is only ever recorded by the server. */
export const ZSuppliedConsentMethod = z.enum(['widget', 'partner_attested'], 'must be widget or partner_attested');

export const ZConsentId = prefixedId('cns', 'cns_4Rt7yU1iO3pA5sD8');

export const ZTermsVersion = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').meta({
  description: 'The version of the consent disclosure text the consumer was shown (`terms.currentVersion`).',
  example: '2026-11-25',
});

// The generator writes `format: ip` for both, which JSON Schema does not define: its own `ipv4` and `ipv6` are stated.
const ipAddress = z
  .union([z.ipv4().meta({ format: 'ipv4' }), z.ipv6().meta({ format: 'ipv6' })], 'must be an IPv4 or IPv6 address')
  .meta({ description: 'Where the consumer accepted from.', example: '203.0.113.7' });
const userAgent = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(512, 'must be at most 512 characters')
  .meta({ description: 'The browser the consumer accepted in.', example: 'Mozilla/5.0 (Macintosh) Safari/605.1.15' });
const acceptedAt = instantInput().meta({
  description: 'When the consumer accepted (ISO 8601). Not in the future; the consent runs for the validity period from then.',
  example: '2026-11-25T10:30:00Z',
});

/** The record a partner supplies with an enrolment (single and batch): required in production. */
export const ZEnrollmentConsent = z
  .strictObject({
    termsVersion: ZTermsVersion,
    acceptedAt,
    method: ZSuppliedConsentMethod,
    ipAddress: ipAddress.optional(),
    userAgent: userAgent.optional(),
  })
  .meta({
    id: 'EnrollmentConsent',
    description:
      'The consumer’s instruction to pull their credit file for credit monitoring. Required in production ' +
      '(`400` naming `consent` without it); in the sandbox an enrolment without it is recorded as `sandbox_default`.',
  });
export type TEnrollmentConsent = z.infer<typeof ZEnrollmentConsent>;

/** POST …/consent: grant or renew. A user token (the widget) records `widget` with the request's time, IP and user agent. */
export const ZGrantConsentInput = z
  .strictObject({
    termsVersion: ZTermsVersion,
    method: ZSuppliedConsentMethod,
    acceptedAt: acceptedAt.optional().meta({
      description:
        'When the consumer accepted; default now. Ignored with a user token: the widget’s consent is dated when it arrives.',
    }),
    ipAddress: ipAddress.optional(),
    userAgent: userAgent.optional(),
  })
  .meta({ id: 'GrantConsentInput' });
export type TGrantConsentInput = z.infer<typeof ZGrantConsentInput>;

export const CONSENT_RECORD_STATUSES = ['active', 'expired', 'withdrawn', 'superseded'] as const;

export const ZConsentRecord = z
  .object({
    consentId: ZConsentId,
    status: z.enum(CONSENT_RECORD_STATUSES).meta({
      description:
        '`active`: the current consent; `expired`: past `expiresAt`; `withdrawn`: the consumer withdrew it; ' +
        '`superseded`: replaced by a renewal. A record under terms that now require re-consent is `superseded` too.',
    }),
    termsVersion: z.string(),
    method: ZConsentMethod,
    purpose: z.literal('credit_monitoring'),
    recipients: z.array(z.string()).meta({ description: 'Who may receive the file under it: us and you, by name.' }),
    acceptedAt: ZTimestamp,
    recordedAt: ZTimestamp,
    expiresAt: ZTimestamp,
    withdrawnAt: ZTimestamp.nullable(),
    ipAddress: z.string().nullable().meta({ description: 'Where it was given from, when known (stored encrypted).' }),
    userAgent: z.string().nullable().meta({ description: 'The browser it was given in, when known (stored encrypted).' }),
  })
  .meta({ id: 'ConsentRecord' });
export type TConsentRecord = z.infer<typeof ZConsentRecord>;

export const ZConsentTerms = z
  .object({
    currentVersion: z.string().meta({ description: 'The terms version a new consent should be given under.' }),
    disclosureTextId: z.string().meta({
      description: 'Which disclosure text the widget shows for `currentVersion` (`consent-disclosure-<version>`).',
      example: 'consent-disclosure-2026-11-25',
    }),
    requiresReconsent: z.boolean().meta({
      description: 'Whether consent under an older version stopped counting when this version was published.',
    }),
    validityDays: z.number().int().meta({ description: 'How long a consent runs from `acceptedAt`.', example: 365 }),
  })
  .meta({ id: 'ConsentTerms' });

/**
 * The records a consent state lists. A real consumer renews about once a year, so this is their whole history; it
 * bounds what one answer costs when a caller renews in a loop (each record is decrypted into every answer).
 */
export const CONSENT_HISTORY_LIMIT = 25;

export const ZConsentState = z
  .object({
    userId: ZUserId,
    current: ZConsentRecord.nullable().meta({ description: 'The consent pulls rest on now; null when there is none.' }),
    reconsentRequired: z.boolean().meta({
      description:
        'True when no current consent exists (never given, withdrawn, expired, or given under terms that now require ' +
        're-consent): no pull happens and monitoring is paused until the consumer consents again.',
    }),
    terms: ZConsentTerms,
    history: z
      .array(ZConsentRecord)
      .max(CONSENT_HISTORY_LIMIT)
      .meta({
        description:
          `The user’s consent records, most recent first (the current one included): the ${CONSENT_HISTORY_LIMIT} most recent. ` +
          'Older ones stay stored: `GET /v1/users/{userId}/consent/history` lists every record, a page at a time.',
      }),
  })
  .meta({ id: 'ConsentState' });
export type TConsentState = z.infer<typeof ZConsentState>;

/** What an enrolment answers about the consent it recorded, so a sandbox integration sees `sandbox_default`. */
export const ZConsentSummary = z
  .object({
    consentId: ZConsentId,
    method: ZConsentMethod,
    termsVersion: z.string(),
    expiresAt: ZTimestamp,
  })
  .meta({ id: 'ConsentSummary' });
export type TConsentSummary = z.infer<typeof ZConsentSummary>;

export const CONSENT_HISTORY_SORT_FIELDS = ['recordedAt'] as const;

/** GET …/consent/history: every record, a page at a time (the consent state lists the most recent only). */
export const ZListConsentHistoryQuery = z.strictObject({
  ...ZPageQuery.shape,
  sort: sortQuery(CONSENT_HISTORY_SORT_FIELDS, '-recordedAt'),
});
export type TListConsentHistoryQuery = z.infer<typeof ZListConsentHistoryQuery>;
