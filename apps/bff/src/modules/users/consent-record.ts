import type { TConsentRecord, TConsentSummary, TEnrollmentConsent, TGrantConsentInput } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../core/api-error.ts';
import type { Caller } from '../../core/principal.ts';
import type { ConsentRow, NewConsent } from './consent-repo.ts';

/** Who receives the file under a consent, by name at the time it is given: us and the partner. */
const OUR_NAME = 'Credit API';

/**
 * sandbox_default stands in for a consent an older sandbox integration does not send: it never expires (shown as
 * 9999-12-31), so such an integration keeps working on test clocks advanced years ahead. Consents that are supplied
 * expire as in production, which is how expiry is tested.
 */
export const SANDBOX_DEFAULT_EXPIRY = new Date('9999-12-31T00:00:00.000Z');

/** A consent may be dated this far after our clock (the partner's clock runs a little ahead), not more. */
const ACCEPTED_AT_SKEW_MS = 5 * 60_000;

/** Where the request came from, for a consent the widget collects. */
export interface RequestOrigin {
  ip: string | undefined;
  userAgent: string | undefined;
  /** For the audit trail. */
  requestId: string | undefined;
}

const seal = (ctx: AppContext, consentId: string, column: 'ip_address' | 'user_agent', value: string | undefined) =>
  value ? ctx.cipher.encrypt(value, `consents.${column}:${consentId}`) : null;

const open = (ctx: AppContext, consentId: string, column: 'ip_address' | 'user_agent', sealed: string | null) =>
  sealed ? ctx.cipher.decrypt(sealed, `consents.${column}:${consentId}`) : null;

/**
 * The record to store for a consent a caller supplies (an enrolment's `consent`, or POST …/consent), checked against
 * the current terms and the validity period. A user token is the consumer in our widget: the method is `widget`, and
 * the time, IP address and user agent are the request's, whatever the body says. `field` prefixes error details.
 */
export const suppliedConsent = (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  input: TEnrollmentConsent | TGrantConsentInput,
  origin: RequestOrigin,
  now: Date,
  field: string,
): NewConsent => {
  const { CONSENT_TERMS_VERSION, CONSENT_VALIDITY } = ctx.config;
  if (input.termsVersion !== CONSENT_TERMS_VERSION) {
    throw validationError([
      { field: `${field}termsVersion`, message: `must be the current terms version, ${CONSENT_TERMS_VERSION}` },
    ]);
  }
  const fromWidget = caller.principal.kind === 'user';
  // The consumer accepts in our widget as the request arrives: a browser's own clock (or a crafted body) must not
  // date the instruction. A partner attests a time its own records hold, checked below.
  const acceptedAt = input.acceptedAt && !fromWidget ? new Date(input.acceptedAt) : now;
  if (acceptedAt.getTime() > now.getTime() + ACCEPTED_AT_SKEW_MS) {
    throw validationError([{ field: `${field}acceptedAt`, message: 'must not be in the future' }]);
  }
  const expiresAt = new Date(acceptedAt.getTime() + CONSENT_VALIDITY);
  if (expiresAt.getTime() <= now.getTime()) {
    throw validationError([
      { field: `${field}acceptedAt`, message: 'is so long ago that the consent has already expired: ask the consumer again' },
    ]);
  }
  const id = ctx.ids.id('cns');
  return {
    id,
    clientId: caller.clientId,
    userId,
    termsVersion: input.termsVersion,
    method: fromWidget ? 'widget' : input.method,
    recipients: [OUR_NAME, caller.principal.client.name],
    ipAddressEnc: seal(ctx, id, 'ip_address', fromWidget ? origin.ip : input.ipAddress),
    userAgentEnc: seal(ctx, id, 'user_agent', fromWidget ? origin.userAgent : input.userAgent),
    acceptedAt,
    recordedAt: now,
    expiresAt,
  };
};

/**
 * The consent an enrolment records: the one supplied, else in the sandbox `sandbox_default` under the current terms
 * (so integrations written before consent keep working); production refuses (400 naming `consent`).
 */
export const enrolmentConsent = (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  input: TEnrollmentConsent | undefined,
  origin: RequestOrigin,
  now: Date,
): NewConsent => {
  if (input) return suppliedConsent(ctx, caller, userId, input, origin, now, 'consent.');
  if (caller.principal.client.environment === 'production') {
    throw validationError(
      [
        {
          field: 'consent',
          message:
            'is required in production: the consumer’s instruction to pull their credit file ' +
            '({ termsVersion, acceptedAt, method, ipAddress?, userAgent? })',
        },
      ],
      'An enrolment in production must carry the consumer’s consent; see details.',
    );
  }
  return {
    id: ctx.ids.id('cns'),
    clientId: caller.clientId,
    userId,
    termsVersion: ctx.config.CONSENT_TERMS_VERSION,
    method: 'sandbox_default',
    recipients: [OUR_NAME, caller.principal.client.name],
    ipAddressEnc: null,
    userAgentEnc: null,
    acceptedAt: now,
    recordedAt: now,
    expiresAt: SANDBOX_DEFAULT_EXPIRY,
  };
};

export const consentSummary = (c: NewConsent): TConsentSummary => ({
  consentId: c.id,
  method: c.method,
  termsVersion: c.termsVersion,
  expiresAt: c.expiresAt.toISOString(),
});

const iso = (value: Date) => new Date(value).toISOString();

/** A stored record as the API shows it, its status read at `now`. */
export const toConsentRecord = (ctx: AppContext, row: ConsentRow, now: Date): TConsentRecord => {
  const status = row.withdrawn_at
    ? 'withdrawn'
    : row.superseded_at
      ? 'superseded'
      : new Date(row.expires_at).getTime() <= now.getTime()
        ? 'expired'
        : 'active';
  return {
    consentId: row.id,
    status,
    termsVersion: row.terms_version,
    method: row.method,
    purpose: row.purpose,
    recipients: row.recipients,
    acceptedAt: iso(row.accepted_at),
    recordedAt: iso(row.recorded_at),
    expiresAt: iso(row.expires_at),
    withdrawnAt: row.withdrawn_at ? iso(row.withdrawn_at) : null,
    ipAddress: open(ctx, row.id, 'ip_address', row.ip_address_enc),
    userAgent: open(ctx, row.id, 'user_agent', row.user_agent_enc),
  };
};
