/**
 * The bank's console (`/console`): its roles, the operations it calls on a staff member's behalf and the least role
 * each needs, and the names its session travels under. Types and constants only, no imports: the console app reads it
 * without pulling zod in, and the server enforces the same table.
 */

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
 * The contract operations the console may call, each with the least role it needs. Anything else (minting tokens,
 * console links, deleting users or webhooks, the sandbox's per-user helpers, user-token routes) is not the console's
 * to call. A call is admitted with the one scope its operation names, when the bank itself holds that scope.
 */
export const CONSOLE_OPERATIONS = {
  getProgramResults: 'viewer',
  listOffers: 'viewer',
  getOffer: 'viewer',
  getOfferVersion: 'viewer',
  listWebhooks: 'viewer',
  getWebhook: 'viewer',
  listWebhookDeliveries: 'viewer',
  listUsers: 'viewer',
  getUser: 'viewer',
  getConsent: 'viewer',
  listConsentHistory: 'viewer',
  listAlerts: 'viewer',
  listEvents: 'viewer',
  getEvent: 'viewer',
  listAuditEvents: 'viewer',
  // Checks the chain and changes nothing: a POST only because the check is work the server does on request.
  verifyAuditTrail: 'viewer',
  listSandboxClocks: 'viewer',
  getSandboxClock: 'viewer',
  getClientCredentials: 'viewer',
  testWebhook: 'editor',
  recoverWebhook: 'editor',
  rotateWebhookSecret: 'editor',
  retryWebhookDelivery: 'editor',
  updateWebhook: 'editor',
  createOffer: 'editor',
  updateOffer: 'editor',
  pauseOffer: 'editor',
  resumeOffer: 'editor',
  archiveOffer: 'editor',
  previewOfferAudience: 'editor',
  createSandboxClock: 'editor',
  attachSandboxClockUsers: 'editor',
  advanceSandboxClock: 'editor',
  rotateClientSecret: 'editor',
} as const satisfies Record<string, ConsoleRole>;
export type ConsoleOperationId = keyof typeof CONSOLE_OPERATIONS;

const ROLE_RANK: Record<ConsoleRole, number> = { viewer: 0, editor: 1 };

/** Whether `role` may call `operationId` through the console. */
export const consoleRoleMay = (role: ConsoleRole, operationId: string): boolean => {
  const needed = (CONSOLE_OPERATIONS as Record<string, ConsoleRole | undefined>)[operationId];
  return needed !== undefined && ROLE_RANK[role] >= ROLE_RANK[needed];
};

/** What `GET /console/session` answers the console app: who is signed in, for which bank, and the CSRF token. */
export interface ConsoleSessionInfo {
  clientId: string;
  clientName: string;
  environment: 'sandbox' | 'production';
  staff: { id: string; email: string };
  role: ConsoleRole;
  expiresAt: string;
  csrfToken: string;
}
