import { defineOperation } from '../operation.ts';
import {
  ZAudienceMember,
  ZAudiencePreview,
  ZAudiencePreviewInput,
  ZAudienceQuery,
  ZClickIdParams,
  ZCreateOfferInput,
  ZListOffersCatalogQuery,
  ZListUserOffersQuery,
  ZOffer,
  ZOfferClick,
  ZOfferClickInput,
  ZOfferClickRecord,
  ZOfferIdParams,
  ZOfferImpressions,
  ZOfferImpressionsInput,
  ZOfferVersionParams,
  ZProgramResults,
  ZProgramResultsQuery,
  ZRecordOutcomeInput,
  ZUpdateOfferInput,
  ZUserOfferParams,
} from '../resources/offers.ts';
import { ZUserIdParams } from '../resources/users.ts';

export const listUserOffers = defineOperation({
  operationId: 'listUserOffers',
  method: 'get',
  path: '/v1/users/{userId}/offers',
  tag: 'Offers',
  summary: 'List personalised offers for a user',
  description:
    'Your catalogue’s offers shown now, each pre-qualified against the file on record (never a new pull): ' +
    '`qualification` gives the customer’s tier APR and limit and a reason per rule, `estimatedSavings` what moving ' +
    'an account on file would change. Qualifying offers come first. Filter by `type` and `status` (`active` by ' +
    'default). The user must be `active`; sandbox ssn `0000` answers `403 CREDIT_FROZEN`.',
  auth: { kind: 'bearer', scope: 'offers', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams, query: ZListUserOffersQuery },
  success: { status: 200, description: 'A page of offers, best match first.', data: ZOffer, list: true },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE'],
});

export const recordOfferClick = defineOperation({
  operationId: 'recordOfferClick',
  method: 'post',
  path: '/v1/users/{userId}/offers/{offerId}/click',
  tag: 'Offers',
  summary: 'Record that a user clicked an offer',
  description:
    'Stores the click with the offer version seen and emits `offer.clicked`; the answer’s `applicationUrl` has ' +
    '`{clickId}` and `{externalUserId}` filled, so your application knows where the customer came from. The body is ' +
    'optional: `source`, the client-side `timestamp` and `metadata` (`page`, `position`) help attribution. Send an ' +
    '`Idempotency-Key` so a retried click is counted once.',
  auth: { kind: 'bearer', scope: 'offers', userToken: 'own-user' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZUserOfferParams, body: ZOfferClickInput },
  success: { status: 201, description: 'The click record.', data: ZOfferClick },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE', 'IDEMPOTENCY_CONFLICT'],
});

export const recordOfferImpressions = defineOperation({
  operationId: 'recordOfferImpressions',
  method: 'post',
  path: '/v1/users/{userId}/offers/impressions',
  tag: 'Offers',
  summary: 'Record offers the user saw',
  description:
    'An impression is an offer card at least half visible for one second (the IAB display standard); the widget ' +
    'sends them in batches. Each counts once per customer, offer and day; ids not in your catalogue are ignored.',
  auth: { kind: 'bearer', scope: 'offers', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams, body: ZOfferImpressionsInput },
  success: { status: 200, description: 'How many were new today.', data: ZOfferImpressions },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED'],
});

export const listOffers = defineOperation({
  operationId: 'listOffers',
  method: 'get',
  path: '/v1/offers',
  tag: 'Offers',
  summary: 'List your offer catalogue',
  description:
    'Your own cards and loans, newest first, not tied to a user: `preQualified` is false and `qualification` null ' +
    'here. Filter by `type` and `status` (`active` by default). A new sandbox client starts with a sample ' +
    'catalogue under its own name; a production client starts empty.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { query: ZListOffersCatalogQuery },
  success: { status: 200, description: 'A page of the catalogue.', data: ZOffer, list: true },
  errors: [],
});

export const createOffer = defineOperation({
  operationId: 'createOffer',
  method: 'post',
  path: '/v1/offers',
  tag: 'Offers',
  summary: 'Add an offer to your catalogue',
  description:
    'An offer has tiers by score band (APR, and credit line or amount), eligibility `rules` checked against each ' +
    'customer’s file on record, and `costs` (annual fee, origination or transfer fee, intro APR) that the savings ' +
    'figures include. `termMonths` is required for loans and mortgages. Recorded on the audit trail.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { body: ZCreateOfferInput },
  success: { status: 201, description: 'The new offer, version 1.', data: ZOffer },
  errors: ['IDEMPOTENCY_CONFLICT'],
});

export const getOffer = defineOperation({
  operationId: 'getOffer',
  method: 'get',
  path: '/v1/offers/{offerId}',
  tag: 'Offers',
  summary: 'Get an offer of your catalogue',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { params: ZOfferIdParams },
  success: { status: 200, description: 'The offer.', data: ZOffer },
  errors: ['NOT_FOUND'],
});

export const getOfferVersion = defineOperation({
  operationId: 'getOfferVersion',
  method: 'get',
  path: '/v1/offers/{offerId}/versions/{version}',
  tag: 'Offers',
  summary: 'Get the terms an offer had at one version',
  description:
    'The offer as it was at `version` (a click’s `offerVersion`): what the customer saw when they clicked, for your ' +
    'records and your compliance team. `status`, `startsAt` and `expiresAt` are today’s.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { params: ZOfferVersionParams },
  success: { status: 200, description: 'The offer at that version.', data: ZOffer },
  errors: ['NOT_FOUND'],
});

export const updateOffer = defineOperation({
  operationId: 'updateOffer',
  method: 'patch',
  path: '/v1/offers/{offerId}',
  tag: 'Offers',
  summary: 'Change an offer',
  description:
    'Every change makes a new `version`; clicks and outcomes keep the version the customer saw. An archived offer ' +
    'cannot change (`409 OFFER_STATE_CONFLICT`). Recorded on the audit trail.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { params: ZOfferIdParams, body: ZUpdateOfferInput },
  success: { status: 200, description: 'The offer as changed.', data: ZOffer },
  errors: ['NOT_FOUND', 'OFFER_STATE_CONFLICT'],
});

const transition = <const Id extends string, const Verb extends string>(
  operationId: Id,
  verb: Verb,
  summary: string,
  description: string,
) =>
  defineOperation({
    operationId,
    method: 'post',
    path: `/v1/offers/{offerId}/${verb}` as const,
    tag: 'Offers',
    summary,
    description: `${description} Doing it twice answers the offer unchanged. Recorded on the audit trail.`,
    auth: { kind: 'bearer', scope: 'offers' },
    rateLimit: 'userOps',
    request: { params: ZOfferIdParams },
    success: { status: 200, description: 'The offer.', data: ZOffer },
    errors: ['NOT_FOUND', 'OFFER_STATE_CONFLICT'],
  });

export const pauseOffer = transition(
  'pauseOffer',
  'pause',
  'Pause an offer',
  'Hides an active offer from customers until it is resumed.',
);
export const resumeOffer = transition(
  'resumeOffer',
  'resume',
  'Resume or publish an offer',
  'Shows a paused or draft offer again (from `startsAt`, until `expiresAt`).',
);
export const archiveOffer = transition(
  'archiveOffer',
  'archive',
  'Archive an offer',
  'Withdraws the offer for good; its clicks, outcomes and results are kept, and outcomes can still be recorded.',
);

export const listOfferAudience = defineOperation({
  operationId: 'listOfferAudience',
  method: 'get',
  path: '/v1/offers/{offerId}/audience',
  tag: 'Offers',
  summary: 'List the customers who qualify for an offer today',
  description:
    'Your enrolled, verified customers with consent in force whose file on record meets the offer’s rules today, ' +
    'for your own e-mail or in-app campaign; `pagination.total` is the count. Built from files your customers ' +
    'instructed us to obtain: not a prescreen of people who never enrolled (docs/partner/offers.md). Each listing ' +
    'is on the audit trail.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { params: ZOfferIdParams, query: ZAudienceQuery },
  success: { status: 200, description: 'A page of qualifying customers.', data: ZAudienceMember, list: true },
  errors: ['NOT_FOUND'],
});

export const previewOfferAudience = defineOperation({
  operationId: 'previewOfferAudience',
  method: 'post',
  path: '/v1/offers/audience-preview',
  tag: 'Offers',
  summary: 'Count who would qualify for rules not saved yet',
  description:
    'How many of your customers would qualify today for an offer with these `tiers` and `rules`, checked as ' +
    '`listOfferAudience` checks a saved offer (same customers, same file on record), before you create or change it. ' +
    'A count only: no customer is named, and nothing is stored.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { body: ZAudiencePreviewInput },
  success: { status: 200, description: 'The count.', data: ZAudiencePreview },
  errors: [],
});

export const getOfferClick = defineOperation({
  operationId: 'getOfferClick',
  method: 'get',
  path: '/v1/offers/clicks/{clickId}',
  tag: 'Offers',
  summary: 'Get a click and its outcomes',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { params: ZClickIdParams },
  success: { status: 200, description: 'The click with every stage recorded.', data: ZOfferClickRecord },
  errors: ['NOT_FOUND'],
});

export const recordOfferOutcome = defineOperation({
  operationId: 'recordOfferOutcome',
  method: 'post',
  path: '/v1/offers/clicks/{clickId}/outcomes',
  tag: 'Offers',
  summary: 'Record what became of an application',
  description:
    'Your application reports its progress against the click it came from (`{clickId}` in the application URL): ' +
    '`applied`, `approved`, `declined`, `funded` with the amount. Forward only; the same stage again answers the ' +
    'record unchanged and emits nothing; an earlier stage is `409 OFFER_STATE_CONFLICT`. Each new stage ' +
    'emits `offer.converted` with it and counts in the program’s results.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZClickIdParams, body: ZRecordOutcomeInput },
  success: { status: 200, description: 'The click with every stage recorded.', data: ZOfferClickRecord },
  errors: ['NOT_FOUND', 'OFFER_STATE_CONFLICT', 'IDEMPOTENCY_CONFLICT'],
});

export const getProgramResults = defineOperation({
  operationId: 'getProgramResults',
  method: 'get',
  path: '/v1/offers/results',
  tag: 'Offers',
  summary: 'What your program yields over a date range',
  description:
    'Enrolments, verifications, consents, customers who looked at their score, offer impressions, clicks, ' +
    'applications, approvals and funded loans by day, week or month, per offer and in total, and the scores on ' +
    'record today by band. Read from counts kept as events happen, never a scan of your customers.',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { query: ZProgramResultsQuery },
  success: { status: 200, description: 'The results.', data: ZProgramResults },
  errors: [],
});
