import type { TAuditEventType, TEventType } from '@credit/contract';

/**
 * The contract's lists the filters offer, as type-checked key sets: a type added to (or removed from) the contract
 * fails the console's typecheck here, and the page ships no zod (the contract's own lists are zod enums' sources).
 */
const EVENT_TYPE_SET = {
  'user.enrolled': true,
  'user.verified': true,
  'user.deleted': true,
  'score.updated': true,
  'score.changed': true,
  'alert.created': true,
  'alert.email.sent': true,
  'alert.email.suppressed': true,
  'alert.email.failed': true,
  'offer.clicked': true,
  'offer.converted': true,
  'sandbox.clock.ready': true,
  'consent.withdrawn': true,
} as const satisfies Record<TEventType, true>;

const AUDIT_TYPE_SET = {
  'credit_data.read': true,
  'personal_data.read': true,
  'bureau.pull': true,
  'credit_file.recorded': true,
  'consent.given': true,
  'consent.withdrawn': true,
  'token.minted': true,
  'user.deleted': true,
  'user.purged': true,
  'webhook.secret_rotated': true,
  'client.secret_rotated': true,
  'offer.changed': true,
  'console.link_created': true,
  'console.signed_in': true,
  'console.signed_out': true,
  'console.request': true,
} as const satisfies Record<TAuditEventType, true>;

export const EVENT_TYPES = Object.keys(EVENT_TYPE_SET) as TEventType[];
export const AUDIT_TYPES = Object.keys(AUDIT_TYPE_SET) as TAuditEventType[];
