import {
  MAX_SECRET_OVERLAP_SECONDS,
  SCOPES,
  type Scope,
  type TClientCredentials,
  WIDGET_DISCLOSURES,
  type WidgetDisclosure,
} from '@credit/contract';
import { writeTransaction } from '../../cache/invalidation.ts';
import type { AppContext } from '../../context.ts';
import { ENVIRONMENT_TAG, MONITORING_CADENCES, type MonitoringCadence } from '../../core/principal.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { type Clock, realNow } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import { invalidCidrs } from '../../security/ip-allowlist.ts';
import { hashSecret, verifySecret } from '../../security/secret-hash.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import { type AlertEmailSettings, alertEmailSettingProblems, DEFAULT_ALERT_EMAIL_SETTINGS } from './alert-email-settings.ts';
import { invalidEmbedOrigins, originAllowed } from './embed-origins.ts';
import {
  type ClientAlertEmailSettings,
  type ClientChanges,
  type ClientRecord,
  findAlertEmailSettings,
  findBootstrapClient,
  findClient,
  findMonitoringCadence,
  insertClient,
  listEmbedOriginPatterns,
  replaceClientSecret,
  revokeClientTokens as revokeTokensOf,
  updateClient,
} from './repo.ts';

type Environment = 'sandbox' | 'production';

export interface CreateClientInput {
  name: string;
  contactEmail: string;
  scopes?: Scope[];
  embedOrigins?: string[];
  ipAllowlist?: string[];
  /** What host pages may learn about the score through widget events; default `none`. */
  widgetDisclosure?: WidgetDisclosure;
  monitoringCadence?: MonitoringCadence;
  /** Alert e-mails to the client's customers (docs/partner/alert-emails.md); off unless `enabled`. */
  alertEmails?: Partial<AlertEmailSettings>;
  id?: string;
  secret?: string;
  isBootstrap?: boolean;
}

/** Any localhost origin, on any port: the sandbox default for embedding the widget. */
export const LOCALHOST_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*', 'https://localhost:*', 'https://127.0.0.1:*'];

export const newClientId = (environment: Environment) => `cli_${ENVIRONMENT_TAG[environment]}_${randomToken(16)}`;
export const newClientSecret = () => `sk_${randomToken(40)}`;
/**
 * What a client secret looks like: `sk_` and token characters (newClientSecret's, and the `sk_test_…` kind people
 * configure). Only the shape is tested, never a stored secret, so telling a caller "this is a secret" leaks nothing.
 */
export const CLIENT_SECRET_SHAPE = /^sk_[A-Za-z0-9_-]{8,200}$/;

/** Refuses alert e-mail settings that are invalid, or that would leave e-mails on without what every e-mail needs. */
const checkAlertEmails = (current: AlertEmailSettings, changes: Partial<AlertEmailSettings> | undefined) => {
  if (!changes) return;
  const problems = alertEmailSettingProblems(current, changes);
  if (problems.length) throw new Error(problems.join('; '));
};

const checkChanges = (changes: ClientChanges) => {
  const badScopes = (changes.scopes ?? []).filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (badScopes.length) throw new Error(`Unknown scopes: ${badScopes.join(', ')} (known: ${SCOPES.join(', ')})`);
  const badOrigins = invalidEmbedOrigins(changes.embedOrigins ?? []);
  if (badOrigins.length)
    throw new Error(`Not an origin such as https://bank.example or http://localhost:*: ${badOrigins.join(', ')}`);
  const badCidrs = invalidCidrs(changes.ipAllowlist ?? []);
  if (badCidrs.length) throw new Error(`Not an IP address or CIDR: ${badCidrs.join(', ')}`);
  if (changes.widgetDisclosure !== undefined && !(WIDGET_DISCLOSURES as readonly string[]).includes(changes.widgetDisclosure)) {
    throw new Error(`Unknown widget disclosure: ${changes.widgetDisclosure} (known: ${WIDGET_DISCLOSURES.join(', ')})`);
  }
  if (
    changes.monitoringCadence !== undefined &&
    !(MONITORING_CADENCES as readonly string[]).includes(changes.monitoringCadence)
  ) {
    throw new Error(`Unknown monitoring cadence: ${changes.monitoringCadence} (known: ${MONITORING_CADENCES.join(', ')})`);
  }
  for (const limit of Object.values(changes.rateLimits ?? {})) {
    if (limit !== null && limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new Error('Rate limits must be positive whole numbers');
    }
  }
};

export const createClient = async (
  db: Db,
  clock: Clock,
  environment: Environment,
  input: CreateClientInput,
): Promise<{ client: ClientRecord; secret: string }> => {
  const prefix = `cli_${ENVIRONMENT_TAG[environment]}_`;
  const id = input.id ?? newClientId(environment);
  if (!id.startsWith(prefix)) throw new Error(`A ${environment} client id must start with ${prefix}`);
  const scopes = input.scopes ?? [...SCOPES];
  checkChanges({
    scopes,
    ipAllowlist: input.ipAllowlist,
    embedOrigins: input.embedOrigins,
    widgetDisclosure: input.widgetDisclosure,
    monitoringCadence: input.monitoringCadence,
  });
  checkAlertEmails(DEFAULT_ALERT_EMAIL_SETTINGS, input.alertEmails);
  const secret = input.secret ?? newClientSecret();
  const inserted = await insertClient(db, {
    id,
    name: input.name,
    environment,
    secretHash: await hashSecret(secret),
    scopes,
    contactEmail: input.contactEmail,
    embedOrigins: input.embedOrigins ?? (environment === 'sandbox' ? LOCALHOST_ORIGINS : []),
    ipAllowlist: input.ipAllowlist ?? [],
    widgetDisclosure: input.widgetDisclosure ?? 'none',
    monitoringCadence: input.monitoringCadence ?? 'monthly',
    alertEmails: input.alertEmails,
    isBootstrap: input.isBootstrap ?? false,
    createdAt: clock.now(),
  });
  if (!inserted) throw new Error(`Client ${id} already exists`);
  return { client: (await findClient(db, id)) as ClientRecord, secret };
};

/** How often the client's monitored customers are refreshed (its setting; monthly when unset). */
export const clientMonitoringCadence = (db: Queryable, id: string): Promise<MonitoringCadence> => findMonitoringCadence(db, id);

export const changeClient = async (db: Db, id: string, changes: ClientChanges): Promise<ClientRecord> => {
  checkChanges(changes);
  if (changes.alertEmails) {
    const current = await findAlertEmailSettings(db, id);
    if (!current) throw new Error(`No client ${id}`);
    checkAlertEmails(current, changes.alertEmails);
  }
  if (!(await writeTransaction(db, undefined, (tx) => updateClient(tx, id, changes)))) throw new Error(`No client ${id}`);
  return (await findClient(db, id)) as ClientRecord;
};

export interface SecretRotationOptions {
  /** How long the current secret stays valid beside the new one; 0 (the default) ends it, its tokens and sessions now. */
  overlapSeconds?: number;
  /** Who asked, for the audit trail: the operator's CLI unless said otherwise. */
  actor?: AuditActor;
  requestId?: string;
  /** The console session (its stored hash) that asked: it stays open when the others end. */
  keepConsoleSession?: string;
}

export interface SecretRotation {
  secret: string;
  secretCreatedAt: Date;
  /** Until when the previous secret mints tokens: the rotation's own time when there is no overlap. */
  previousSecretExpiresAt: Date;
  /** How many live tokens ended with the previous secret (none during an overlap). */
  revokedTokens: number;
}

const CLI_ACTOR: AuditActor = { kind: 'operator', id: 'clients-cli' };

/**
 * A new secret. With an overlap the current one keeps minting tokens until its end, and open tokens and console
 * sessions live on (Stripe's rolled keys); without one, it stops now and every token and console session of the client
 * ends with it, but the console session that asked. On the audit trail either way, never the secret.
 */
export const rotateClientSecret = async (
  db: Db,
  clock: Clock,
  id: string,
  options: SecretRotationOptions & { audit?: AppContext['audit'] } = {},
): Promise<SecretRotation> => {
  const overlapSeconds = options.overlapSeconds ?? 0;
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_SECRET_OVERLAP_SECONDS) {
    throw new Error(`The overlap is a whole number of seconds from 0 to ${MAX_SECRET_OVERLAP_SECONDS} (7 days)`);
  }
  const secret = newClientSecret();
  const now = realNow(clock);
  const previousSecretExpiresAt = new Date(now.getTime() + overlapSeconds * 1000);
  const hash = await hashSecret(secret);
  const revokedTokens = await writeTransaction(db, undefined, async (tx) => {
    if (!(await replaceClientSecret(tx, id, hash, now, previousSecretExpiresAt))) throw new Error(`No client ${id}`);
    const revoked = overlapSeconds === 0 ? await revokeTokensOf(tx, id, now, options.keepConsoleSession) : 0;
    await recordAudit(
      { db, clock, audit: options.audit },
      {
        type: 'client.secret_rotated',
        clientId: id,
        actor: options.actor ?? CLI_ACTOR,
        requestId: options.requestId,
        subject: { overlapSeconds: String(overlapSeconds), previousSecretExpiresAt: previousSecretExpiresAt.toISOString() },
      },
      tx,
    );
    return revoked;
  });
  return { secret, secretCreatedAt: now, previousSecretExpiresAt, revokedTokens };
};

/** Whether `secret` is the client's current secret, or its previous one still inside its overlap at `now`. */
export const clientSecretMatches = async (
  client: ClientRecord | undefined,
  secret: string,
  now: Date,
): Promise<{ matches: boolean; previousUntil?: Date }> => {
  const previous = client?.previousSecret && client.previousSecret.expiresAt > now ? client.previousSecret : undefined;
  // Both checks run whatever the first answers, so the time taken says nothing about which secret was sent.
  const [current, old] = await Promise.all([
    verifySecret(secret, client?.secretHash),
    previous ? verifySecret(secret, previous.hash) : Promise.resolve(false),
  ]);
  if (current) return { matches: true };
  return old && previous ? { matches: true, previousUntil: previous.expiresAt } : { matches: false };
};

/** What the client's credentials are now: never a secret nor its hash. */
export const clientCredentials = (client: ClientRecord, now: Date): TClientCredentials => ({
  clientId: client.id,
  secretCreatedAt: client.secretCreatedAt.toISOString(),
  previousSecret:
    client.previousSecret && client.previousSecret.expiresAt > now
      ? { expiresAt: client.previousSecret.expiresAt.toISOString() }
      : null,
});

export type BootstrapOutcome =
  | { kind: 'configured'; client: ClientRecord }
  | { kind: 'generated'; client: ClientRecord; secret: string }
  | { kind: 'existing'; client: ClientRecord };

/** The sandbox client's name until the operator names the bank (BOOTSTRAP_CLIENT_NAME): consumers read it. */
export const DEFAULT_BANK_NAME = 'Sandbox Bank';

/**
 * Makes sure a sandbox has a client to start with. From BOOTSTRAP_CLIENT_ID/SECRET when set (kept
 * in step with them); otherwise one generated client whose secret is shown once, at creation.
 */
export const ensureBootstrapClient = async (
  db: Db,
  clock: Clock,
  options: { id?: string; secret?: string; email: string; embedOrigins?: string[]; name?: string },
): Promise<BootstrapOutcome> => {
  const embedOrigins = options.embedOrigins ?? LOCALHOST_ORIGINS;
  const name = options.name ?? DEFAULT_BANK_NAME;
  if (options.id && options.secret) {
    const existing = await findClient(db, options.id);
    if (!existing) {
      try {
        const { client } = await createClient(db, clock, 'sandbox', {
          id: options.id,
          secret: options.secret,
          name,
          contactEmail: options.email,
          embedOrigins,
          isBootstrap: true,
        });
        return { kind: 'configured', client };
      } catch (error) {
        // Another instance created it a moment ago; fall through and reconcile.
        if (!(await findClient(db, options.id))) throw error;
      }
    }
    const client = await changeClient(db, options.id, {
      scopes: [...SCOPES],
      contactEmail: options.email,
      embedOrigins,
      ...(options.name ? { name: options.name } : {}),
    });
    if (!(await verifySecret(options.secret, client.secretHash))) {
      const hash = await hashSecret(options.secret);
      await writeTransaction(db, undefined, (tx) => replaceClientSecret(tx, client.id, hash, clock.now()));
    }
    return { kind: 'configured', client };
  }
  const existing = await findBootstrapClient(db);
  if (existing) {
    // A name given at this start renames the client; without one the client keeps the name it has.
    const renamed = options.name && options.name !== existing.name;
    return { kind: 'existing', client: renamed ? await changeClient(db, existing.id, { name: options.name }) : existing };
  }
  const { client, secret } = await createClient(db, clock, 'sandbox', {
    name,
    contactEmail: options.email,
    embedOrigins,
    isBootstrap: true,
  });
  return { kind: 'generated', client, secret };
};

/** Whether any client of this environment lets pages on `origin` embed the widget (decides `frame-ancestors`). */
export const isEmbedOriginOfAnyClient = async (db: Db, environment: Environment, origin: string): Promise<boolean> =>
  originAllowed(await listEmbedOriginPatterns(db, environment), origin);

export { ALERT_EMAIL_MODES, type AlertEmailMode, type AlertEmailSettings } from './alert-email-settings.ts';
export { CLIENT_COLUMNS, type ClientRow, findClient, listAlertEmailSettings, toClient } from './repo.ts';
export type { ClientAlertEmailSettings };

/** The client's alert e-mail settings (what `pnpm clients show` prints, what each e-mail is made of). */
export const clientAlertEmailSettings = (db: Queryable, id: string): Promise<ClientAlertEmailSettings | undefined> =>
  findAlertEmailSettings(db, id);

/** Revokes every live token of the client; every instance drops the ones it cached. */
export const revokeClientTokens = (db: Db, clientId: string, at: Date): Promise<number> =>
  writeTransaction(db, undefined, (tx) => revokeTokensOf(tx, clientId, at));
export { originAllowed };

/** The fixed id of the sandbox client the demo partner page uses. */
export const DEMO_CLIENT_ID = 'cli_sbx_demo_maple_bank';

/**
 * The demo partner's client, holding `secret` (the start command derives it from the instance keys, so it is
 * the same at every start and on every instance, and can be printed: a newcomer reads what the demo did with
 * the demo's own credentials). A different stored secret is replaced and its tokens revoked. Its embed
 * origins are the demo page's alone, which shows partners the per-client origin check at work.
 */
export const ensureDemoClient = async (
  db: Db,
  clock: Clock,
  options: { embedOrigin: string; email: string; secret: string },
): Promise<ClientRecord> => {
  if (!(await findClient(db, DEMO_CLIENT_ID))) {
    try {
      const { client } = await createClient(db, clock, 'sandbox', {
        id: DEMO_CLIENT_ID,
        secret: options.secret,
        name: 'Maple Bank (demo partner)',
        contactEmail: options.email,
        embedOrigins: [options.embedOrigin],
      });
      return client;
    } catch (error) {
      // Another instance created it a moment ago; fall through and reconcile.
      if (!(await findClient(db, DEMO_CLIENT_ID))) throw error;
    }
  }
  const client = await changeClient(db, DEMO_CLIENT_ID, { scopes: [...SCOPES], embedOrigins: [options.embedOrigin] });
  if (!(await verifySecret(options.secret, client.secretHash))) {
    const hash = await hashSecret(options.secret);
    await writeTransaction(db, undefined, async (tx) => {
      await replaceClientSecret(tx, DEMO_CLIENT_ID, hash, clock.now());
      await revokeTokensOf(tx, DEMO_CLIENT_ID, clock.now());
    });
  }
  return client;
};
