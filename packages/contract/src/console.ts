/**
 * The bank's console (`/console`): its roles, the operations it calls on a staff member's behalf with the least role
 * and the scope each needs, and the names its session travels under. Types and constants only, no runtime import: the
 * console app reads it without pulling zod in, and the server enforces the same table.
 */
import type { Scope } from './operation.ts';

/**
 * `viewer` reads everything the console shows and changes nothing; `editor` also changes offers, webhooks, the
 * sandbox's test clocks and the client secret (a rotation).
 */
export const CONSOLE_ROLES = ['viewer', 'editor'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** Where the console's same-origin calls go: `/console/api` + an operation's path (`/v1/offers/results`). */
export const CONSOLE_API_PREFIX = '/console/api';

/** The session cookie (HttpOnly, Secure, SameSite=Strict, Path=/console). */
export const CONSOLE_SESSION_COOKIE = 'console_session';

/** Every console call that changes something echoes the session's CSRF token in this header. */
export const CONSOLE_CSRF_HEADER = 'x-console-csrf';

/** How long a console link can be opened, and how long the session it opens lasts. */
export const CONSOLE_LINK_LIFETIME_SECONDS = 600;
export const CONSOLE_SESSION_LIFETIME_SECONDS = 8 * 3600;

/**
 * The contract operations the console may call, each with the least role it needs and the scope its operation names
 * (the contract's own, checked by the contract's tests). Anything else (minting tokens, console links, deleting users
 * or webhooks, the sandbox's per-user helpers, user-token routes) is not the console's to call. A call is admitted
 * with that one scope, when the bank's client itself holds it.
 */
export const CONSOLE_OPERATIONS = {
  getProgramResults: { role: 'viewer', scope: 'offers' },
  listOffers: { role: 'viewer', scope: 'offers' },
  getOffer: { role: 'viewer', scope: 'offers' },
  getOfferVersion: { role: 'viewer', scope: 'offers' },
  listWebhooks: { role: 'viewer', scope: 'webhooks' },
  getWebhook: { role: 'viewer', scope: 'webhooks' },
  listWebhookDeliveries: { role: 'viewer', scope: 'webhooks' },
  listUsers: { role: 'viewer', scope: 'read' },
  getUser: { role: 'viewer', scope: 'read' },
  getConsent: { role: 'viewer', scope: 'read' },
  listConsentHistory: { role: 'viewer', scope: 'read' },
  listAlerts: { role: 'viewer', scope: 'read' },
  listEvents: { role: 'viewer', scope: 'webhooks' },
  getEvent: { role: 'viewer', scope: 'webhooks' },
  listAuditEvents: { role: 'viewer', scope: 'admin' },
  // Checks the chain and changes nothing: a POST only because the check is work the server does on request.
  verifyAuditTrail: { role: 'viewer', scope: 'admin' },
  listSandboxClocks: { role: 'viewer', scope: 'admin' },
  getSandboxClock: { role: 'viewer', scope: 'admin' },
  getClientCredentials: { role: 'viewer', scope: 'admin' },
  testWebhook: { role: 'editor', scope: 'webhooks' },
  recoverWebhook: { role: 'editor', scope: 'webhooks' },
  rotateWebhookSecret: { role: 'editor', scope: 'webhooks' },
  retryWebhookDelivery: { role: 'editor', scope: 'webhooks' },
  updateWebhook: { role: 'editor', scope: 'webhooks' },
  createOffer: { role: 'editor', scope: 'offers' },
  updateOffer: { role: 'editor', scope: 'offers' },
  pauseOffer: { role: 'editor', scope: 'offers' },
  resumeOffer: { role: 'editor', scope: 'offers' },
  archiveOffer: { role: 'editor', scope: 'offers' },
  previewOfferAudience: { role: 'editor', scope: 'offers' },
  createSandboxClock: { role: 'editor', scope: 'admin' },
  attachSandboxClockUsers: { role: 'editor', scope: 'admin' },
  advanceSandboxClock: { role: 'editor', scope: 'admin' },
  rotateClientSecret: { role: 'editor', scope: 'admin' },
} as const satisfies Record<string, { role: ConsoleRole; scope: Scope }>;
export type ConsoleOperationId = keyof typeof CONSOLE_OPERATIONS;

const ROLE_RANK: Record<ConsoleRole, number> = { viewer: 0, editor: 1 };

const entryOf = (operationId: string) =>
  (CONSOLE_OPERATIONS as Record<string, { role: ConsoleRole; scope: Scope } | undefined>)[operationId];

/** Whether `role` may call `operationId` through the console. */
export const consoleRoleMay = (role: ConsoleRole, operationId: string): boolean => {
  const needed = entryOf(operationId)?.role;
  return needed !== undefined && ROLE_RANK[role] >= ROLE_RANK[needed];
};

/** The scope `operationId` needs of the bank's client, or undefined when the console does not call it. */
export const consoleScopeOf = (operationId: string): Scope | undefined => entryOf(operationId)?.scope;

/**
 * Whether a session may call `operationId`: its role admits it, and the bank's client holds the scope it names (the
 * scope itself: `admin` opens the admin operations, not the others).
 */
export const consoleSessionMay = (session: { role: ConsoleRole; scopes: readonly Scope[] }, operationId: string): boolean => {
  const scope = consoleScopeOf(operationId);
  return scope !== undefined && session.scopes.includes(scope) && consoleRoleMay(session.role, operationId);
};

/**
 * What `GET /console/session` answers the console app: who is signed in, for which bank, the scopes the bank's client
 * holds (what the session may reach, with the role), and the CSRF token.
 */
export interface ConsoleSessionInfo {
  clientId: string;
  clientName: string;
  environment: 'sandbox' | 'production';
  staff: { id: string; email: string };
  role: ConsoleRole;
  scopes: Scope[];
  expiresAt: string;
  csrfToken: string;
}
