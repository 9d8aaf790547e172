import type { ConsoleRole, Scope, WidgetDisclosure } from '@credit/contract';

/** How often a client's monitored customers are refreshed: calendar months (the default) or weeks. */
export const MONITORING_CADENCES = ['monthly', 'weekly'] as const;
export type MonitoringCadence = (typeof MONITORING_CADENCES)[number];

/** A partner's API client as every layer sees it (the row lives in modules/clients). */
export interface ClientRecord {
  id: string;
  name: string;
  environment: 'sandbox' | 'production';
  secretHash: string;
  /** When the current secret was created: the client's creation, or its last rotation. */
  secretCreatedAt: Date;
  /** The secret before the last rotation while an overlap keeps it valid: its hash and its end, never the secret. */
  previousSecret: { hash: string; expiresAt: Date } | null;
  scopes: Scope[];
  contactEmail: string;
  embedOrigins: string[];
  ipAllowlist: string[];
  rateLimits: { auth: number | null; batch: number | null; userOps: number | null };
  /** What the host page may learn about the score through widget events (docs/partner/disclosure.md). */
  widgetDisclosure: WidgetDisclosure;
  monitoringCadence: MonitoringCadence;
  isBootstrap: boolean;
  createdAt: Date;
}

/** What a user token was minted for: the partner's customer, as the partner described them. */
export interface UserTokenClaims {
  email: string;
  firstName: string;
  lastName: string;
  phone?: string;
  externalId?: string;
}

/** One of the bank's staff, signed in to the console (modules/console): the console calls operations as them. */
export interface ConsoleStaff {
  /** The bank's own id for the person: what the audit trail records as the actor. */
  id: string;
  email: string;
  role: ConsoleRole;
  /** The session's stored hash, which names the session without being its token. */
  sessionHash: string;
}

export type Principal =
  | {
      kind: 'access';
      client: ClientRecord;
      scopes: Scope[];
      /** Set when the call comes from the console on a staff member's behalf rather than from the bank's server. */
      staff?: ConsoleStaff;
    }
  | {
      kind: 'user';
      client: ClientRecord;
      /** The scopes of the access token that minted it: a user token never reaches further than its minter. */
      scopes: Scope[];
      externalUserId: string;
      /**
       * Names the token, not the person: a prefix of its keyed hash. The audit trail records it as the actor, so an
       * entry kept for years never holds the partner's customer id (often an e-mail address) once the user is purged.
       */
      tokenRef: string;
      claims: UserTokenClaims;
      expiresAt: Date;
      /** How the token arrived: as a bearer token, or inside the widget session cookie. */
      via: 'bearer' | 'widget-session';
    };

/** What a service call needs to know about who is asking. */
export interface Caller {
  clientId: string;
  /** Set for user tokens: the only user this caller may see. */
  ownExternalUserId?: string;
  principal: Principal;
}

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

/**
 * The user token behind a call to an operation the contract marks `userTokenOnly`: who may call is decided by the route
 * (http/route.ts); this only narrows the type, and a call that breaks that rule is a defect, not a refusal.
 */
export const tokenUser = (caller: Caller): UserPrincipal => {
  if (caller.principal.kind !== 'user') throw new Error('a user-token-only operation was served to another principal');
  return caller.principal;
};

export const ENVIRONMENT_TAG = { sandbox: 'sbx', production: 'live' } as const;

/** `admin` implies every scope. */
export const hasScope = (scopes: readonly Scope[], needed: Scope): boolean => scopes.includes('admin') || scopes.includes(needed);

/** A user token's reference in the audit trail: a prefix of its keyed hash (names the token, not the person). */
export const userTokenRef = (tokenHash: string): string => `utk_${tokenHash.slice(0, 24)}`;
