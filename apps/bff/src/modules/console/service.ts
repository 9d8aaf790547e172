import { timingSafeEqual } from 'node:crypto';
import {
  CONSOLE_LINK_LIFETIME_SECONDS,
  CONSOLE_SESSION_LIFETIME_SECONDS,
  type ConsoleSessionInfo,
  SCOPES,
  type Scope,
  type TConsoleLink,
  type TConsoleLinkInput,
} from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { type ClientRecord, type ConsoleStaff, ENVIRONMENT_TAG, type Principal } from '../../core/principal.ts';
import { realNow } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import {
  claimConsoleLink,
  consoleLinkState,
  deleteEndedConsoleGrants,
  endConsoleSession,
  findOpenConsoleSession,
  insertConsoleLink,
  insertConsoleSession,
} from './repo.ts';

/** What minting a link needs: the API's context, or the operator's CLI (database, keys, settings, clock). */
type ConsoleKeys = Pick<AppContext, 'db' | 'clock' | 'tokens' | 'cipher' | 'config'> & Partial<Pick<AppContext, 'audit'>>;

/** Where a link is opened: `GET /console/auth?token=…`. */
export const CONSOLE_AUTH_PATH = '/console/auth';

/** `cst_`: a console sign-in token (in a link); `css_`: a console session token (in the cookie). */
const mintConsoleToken = (kind: 'cst' | 'css', config: AppContext['config']) =>
  `${kind}_${ENVIRONMENT_TAG[config.APP_ENV]}_${randomToken(40)}`;

/** What a console token looks like; anything else is never looked up. */
const CONSOLE_TOKEN_SHAPE = /^cs[ts]_(sbx|live)_[A-Za-z0-9]{40}$/;
export const isConsoleTokenShaped = (token: string, kind: 'cst' | 'css'): boolean =>
  CONSOLE_TOKEN_SHAPE.test(token) && token.startsWith(`${kind}_`);

/** The e-mail is sealed under the row it belongs to, so a value copied into another row does not open. */
const emailContext = (tokenHash: string) => `console.staff_email:${tokenHash}`;

/** A day past their end, links and sessions of a client are deleted when it next mints one. */
const KEPT_AFTER_END_MS = 86_400_000;

/**
 * A one-time link to the console for one staff member, valid for ten minutes. `actor` is who asked: the client's
 * access token (through the API) or the operator (the CLI).
 */
export const createConsoleLink = async (
  ctx: ConsoleKeys,
  clientId: string,
  input: TConsoleLinkInput,
  actor: AuditActor,
  requestId?: string,
): Promise<TConsoleLink> => {
  const now = realNow(ctx.clock);
  const token = mintConsoleToken('cst', ctx.config);
  const tokenHash = ctx.tokens.hash(token);
  const expiresAt = new Date(now.getTime() + CONSOLE_LINK_LIFETIME_SECONDS * 1000);
  await deleteEndedConsoleGrants(ctx.db, clientId, new Date(now.getTime() - KEPT_AFTER_END_MS));
  await insertConsoleLink(ctx.db, {
    tokenHash,
    clientId,
    staffId: input.staff.id,
    staffEmailSealed: ctx.cipher.encrypt(input.staff.email, emailContext(tokenHash)),
    role: input.role,
    createdAt: now,
    expiresAt,
  });
  await recordAudit(ctx, {
    type: 'console.link_created',
    clientId,
    actor,
    requestId,
    subject: { staffId: input.staff.id, role: input.role },
  });
  const url = `${publicBaseUrl(ctx.config)}${CONSOLE_AUTH_PATH}?token=${token}`;
  return { url, expiresAt: expiresAt.toISOString() };
};

export type LinkRefusal = 'malformed' | 'unknown' | 'used' | 'expired';

export interface OpenedConsoleSession {
  /** The session token: only ever in the cookie. */
  token: string;
  expiresAt: Date;
  client: ClientRecord;
  staffId: string;
}

/** Exchanges a link's token for a session of eight hours, once; or says why it cannot. */
export const openConsoleSession = async (
  ctx: AppContext,
  linkToken: string,
  requestId: string,
): Promise<OpenedConsoleSession | { refused: LinkRefusal }> => {
  if (!isConsoleTokenShaped(linkToken, 'cst')) return { refused: 'malformed' };
  const now = realNow(ctx.clock);
  const hashes = ctx.tokens.candidates(linkToken);
  const link = await claimConsoleLink(ctx.db, hashes, now);
  if (!link) return { refused: await consoleLinkState(ctx.db, hashes) };
  const client = await ctx.auth.findClient(link.clientId);
  if (!client || client.environment !== ctx.config.APP_ENV) return { refused: 'unknown' };
  const token = mintConsoleToken('css', ctx.config);
  const tokenHash = ctx.tokens.hash(token);
  const expiresAt = new Date(now.getTime() + CONSOLE_SESSION_LIFETIME_SECONDS * 1000);
  const email = ctx.cipher.decrypt(link.staffEmailSealed, emailContext(link.tokenHash));
  await insertConsoleSession(ctx.db, {
    tokenHash,
    clientId: link.clientId,
    staffId: link.staffId,
    staffEmailSealed: ctx.cipher.encrypt(email, emailContext(tokenHash)),
    role: link.role,
    createdAt: now,
    expiresAt,
  });
  await recordAudit(ctx, {
    type: 'console.signed_in',
    clientId: link.clientId,
    actor: { kind: 'staff', id: link.staffId },
    requestId,
    subject: { role: link.role, sessionRef: sessionRef(tokenHash) },
  });
  return { token, expiresAt, client, staffId: link.staffId };
};

/** Names a session on the audit trail without being its token: a prefix of its stored hash. */
const sessionRef = (tokenHash: string) => `cs_${tokenHash.slice(0, 24)}`;

export interface ConsoleSession {
  client: ClientRecord;
  staff: ConsoleStaff;
  expiresAt: Date;
  /** The session token the cookie held: what the CSRF token is derived from. */
  token: string;
}

/** The open session a cookie's token names, or undefined (never issued, signed out, or past its eight hours). */
export const findConsoleSession = async (ctx: AppContext, token: string): Promise<ConsoleSession | undefined> => {
  if (!isConsoleTokenShaped(token, 'css')) return undefined;
  const found = await findOpenConsoleSession(ctx.db, ctx.tokens.candidates(token), realNow(ctx.clock));
  if (!found || found.client.environment !== ctx.config.APP_ENV) return undefined;
  return {
    client: found.client,
    staff: {
      id: found.staffId,
      email: ctx.cipher.decrypt(found.staffEmailSealed, emailContext(found.tokenHash)),
      role: found.role,
      sessionHash: found.tokenHash,
    },
    expiresAt: found.expiresAt,
    token,
  };
};

/**
 * The caller a console request acts as: the session's client, holding no scope until the console's table and the
 * role admit an operation, and then only the one scope that operation names, when the client itself holds it (a
 * console never reaches further than the bank's own token, nor further than the operation admitted).
 */
export const consolePrincipal = (session: ConsoleSession, admittedScope?: Scope): Principal => ({
  kind: 'access',
  client: session.client,
  scopes: admittedScope && session.client.scopes.includes(admittedScope) ? [admittedScope] : [],
  staff: session.staff,
});

/**
 * The CSRF token of a session: an HMAC of its token under the token-signing key, so nothing more is stored and only a
 * page that read `GET /console/session` (same-origin) has it.
 */
export const consoleCsrfToken = (ctx: Pick<AppContext, 'tokens'>, sessionToken: string): string =>
  ctx.tokens.hash(`console-csrf:${sessionToken}`);

const sameDigest = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const csrfTokenMatches = (ctx: Pick<AppContext, 'tokens'>, sessionToken: string, presented: string): boolean =>
  ctx.tokens.candidates(`console-csrf:${sessionToken}`).some((digest) => sameDigest(digest, presented));

export const consoleSessionInfo = (ctx: AppContext, session: ConsoleSession): ConsoleSessionInfo => ({
  clientId: session.client.id,
  clientName: session.client.name,
  environment: session.client.environment,
  staff: { id: session.staff.id, email: session.staff.email },
  role: session.staff.role,
  scopes: SCOPES.filter((scope) => session.client.scopes.includes(scope)),
  expiresAt: session.expiresAt.toISOString(),
  csrfToken: consoleCsrfToken(ctx, session.token),
});

/** Signs the staff member out: the session's cookie opens nothing from now on. */
export const endSession = async (ctx: AppContext, session: ConsoleSession, requestId: string): Promise<void> => {
  await endConsoleSession(ctx.db, session.staff.sessionHash, realNow(ctx.clock));
  await recordAudit(ctx, {
    type: 'console.signed_out',
    clientId: session.client.id,
    actor: { kind: 'staff', id: session.staff.id },
    requestId,
    subject: { sessionRef: sessionRef(session.staff.sessionHash) },
  });
};

/** What a path parameter may be to be recorded as it is: an id or a version, never arbitrary text. */
const RECORDABLE_ID = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * Every operation the console calls for a staff member is on the trail, let through or refused by the role, with the
 * ids its path names (never its query, which can hold a customer's own id).
 */
export const recordConsoleRequest = async (
  ctx: AppContext,
  session: ConsoleSession,
  request: { operationId: string; requestId: string; params: Record<string, unknown>; access: 'granted' | 'refused' },
): Promise<void> => {
  const ids: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.params)) {
    if (typeof value === 'string') ids[name] = RECORDABLE_ID.test(value) ? value : 'malformed';
  }
  const userId = ids.userId?.startsWith('usr_') ? ids.userId : null;
  await recordAudit(ctx, {
    type: 'console.request',
    clientId: session.client.id,
    actor: { kind: 'staff', id: session.staff.id },
    requestId: request.requestId,
    userId,
    subject: { ...ids, operationId: request.operationId, role: session.staff.role, access: request.access },
  });
};

/** `frame-ancestors` for the console of `client`: its embed origins only, or nobody. */
export const consoleFrameAncestors = (client: ClientRecord | undefined): string =>
  client?.embedOrigins.length ? client.embedOrigins.join(' ') : "'none'";
