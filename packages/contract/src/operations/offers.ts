import { defineOperation } from '../operation.ts';
import {
  ZListOffersCatalogQuery,
  ZListUserOffersQuery,
  ZOffer,
  ZOfferClick,
  ZOfferClickInput,
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
    'Credit cards, loans and mortgages from several providers; `preQualified` and the order follow the user’s score. ' +
    'Filter by `type` and `status` (`active` by default). The user must be `active`; sandbox ssn `0000` answers ' +
    '`403 CREDIT_FROZEN`.',
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
    'Stores the click and emits `offer.clicked`. The body is optional: `source`, the client-side `timestamp` and ' +
    '`metadata` (`page`, `position`) help attribution. Send an `Idempotency-Key` so a retried click is counted once.',
  auth: { kind: 'bearer', scope: 'offers', userToken: 'own-user' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZUserOfferParams, body: ZOfferClickInput },
  success: { status: 201, description: 'The click record.', data: ZOfferClick },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE', 'IDEMPOTENCY_CONFLICT'],
});

export const listOffers = defineOperation({
  operationId: 'listOffers',
  method: 'get',
  path: '/v1/offers',
  tag: 'Offers',
  summary: 'List the offer catalogue',
  description:
    'Every offer of the catalogue, not tied to a user: `preQualified` is always false here. ' +
    'Filter by `type` and `status` (`active` by default).',
  auth: { kind: 'bearer', scope: 'offers' },
  rateLimit: 'userOps',
  request: { query: ZListOffersCatalogQuery },
  success: { status: 200, description: 'A page of the catalogue.', data: ZOffer, list: true },
  errors: [],
});
