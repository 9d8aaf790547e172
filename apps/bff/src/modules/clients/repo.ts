import type { Scope, WidgetDisclosure } from '@credit/contract';
import type { WriteTx } from '../../cache/invalidation.ts';
import { clientTag } from '../../cache/read-cache.ts';
import type { ClientRecord, MonitoringCadence } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { type AlertEmailSettings, DEFAULT_ALERT_EMAIL_SETTINGS } from './alert-email-settings.ts';

export type { ClientRecord };

export const CLIENT_COLUMNS = `c.id, c.name, c.environment, c.secret_hash, c.secret_rotated_at, c.previous_secret_hash,
  c.previous_secret_expires_at, c.scopes, c.contact_email, c.embed_origins,
  c.ip_allowlist, c.rate_limit_auth, c.rate_limit_batch, c.rate_limit_user_ops, c.widget_disclosure, c.monitoring_cadence, c.is_bootstrap, c.created_at`;

export type ClientRow = {
  id: string;
  name: string;
  environment: 'sandbox' | 'production';
  secret_hash: string;
  secret_rotated_at: Date | null;
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  scopes: Scope[];
  contact_email: string;
  embed_origins: string[];
  ip_allowlist: string[];
  rate_limit_auth: number | null;
  rate_limit_batch: number | null;
  rate_limit_user_ops: number | null;
  widget_disclosure: WidgetDisclosure;
  monitoring_cadence: MonitoringCadence;
  is_bootstrap: boolean;
  created_at: Date;
};

export const toClient = (row: ClientRow): ClientRecord => ({
  id: row.id,
  name: row.name,
  environment: row.environment,
  secretHash: row.secret_hash,
  secretCreatedAt: new Date(row.secret_rotated_at ?? row.created_at),
  previousSecret:
    row.previous_secret_hash && row.previous_secret_expires_at
      ? { hash: row.previous_secret_hash, expiresAt: new Date(row.previous_secret_expires_at) }
      : null,
  scopes: row.scopes,
  contactEmail: row.contact_email,
  embedOrigins: row.embed_origins,
  ipAllowlist: row.ip_allowlist,
  rateLimits: { auth: row.rate_limit_auth, batch: row.rate_limit_batch, userOps: row.rate_limit_user_ops },
  widgetDisclosure: row.widget_disclosure,
  monitoringCadence: row.monitoring_cadence,
  isBootstrap: row.is_bootstrap,
  createdAt: new Date(row.created_at),
});

export const findClient = async (db: Queryable, id: string): Promise<ClientRecord | undefined> => {
  const { rows } = await db.query<ClientRow>(`select ${CLIENT_COLUMNS} from clients c where c.id = $1`, [id]);
  return rows[0] ? toClient(rows[0]) : undefined;
};

export const findMonitoringCadence = async (db: Queryable, id: string): Promise<MonitoringCadence> => {
  const { rows } = await db.query<{ monitoring_cadence: MonitoringCadence }>(
    'select monitoring_cadence from clients where id = $1',
    [id],
  );
  return rows[0]?.monitoring_cadence ?? 'monthly';
};

export const findBootstrapClient = async (db: Queryable): Promise<ClientRecord | undefined> => {
  const { rows } = await db.query<ClientRow>(
    `select ${CLIENT_COLUMNS} from clients c where c.is_bootstrap order by c.created_at limit 1`,
  );
  return rows[0] ? toClient(rows[0]) : undefined;
};

export const listClients = async (db: Queryable): Promise<ClientRecord[]> => {
  const { rows } = await db.query<ClientRow>(`select ${CLIENT_COLUMNS} from clients c order by c.created_at, c.id`);
  return rows.map(toClient);
};

const ALERT_EMAIL_COLUMNS = `c.alert_emails_enabled, c.alert_email_display_name, c.alert_email_logo_url,
  c.alert_email_brand_color, c.alert_email_reply_to, c.alert_email_link_url, c.alert_email_mode`;

interface AlertEmailRow {
  id: string;
  name: string;
  alert_emails_enabled: boolean;
  alert_email_display_name: string | null;
  alert_email_logo_url: string | null;
  alert_email_brand_color: string | null;
  alert_email_reply_to: string | null;
  alert_email_link_url: string | null;
  alert_email_mode: AlertEmailSettings['mode'];
}

/** A client's alert e-mail settings with its name, which stands in for an unset display name. */
export interface ClientAlertEmailSettings extends AlertEmailSettings {
  clientId: string;
  clientName: string;
}

const toAlertEmailSettings = (row: AlertEmailRow): ClientAlertEmailSettings => ({
  clientId: row.id,
  clientName: row.name,
  enabled: row.alert_emails_enabled,
  displayName: row.alert_email_display_name,
  logoUrl: row.alert_email_logo_url,
  brandColor: row.alert_email_brand_color,
  replyTo: row.alert_email_reply_to,
  linkUrl: row.alert_email_link_url,
  mode: row.alert_email_mode,
});

export const findAlertEmailSettings = async (db: Queryable, id: string): Promise<ClientAlertEmailSettings | undefined> => {
  const { rows } = await db.query<AlertEmailRow>(`select c.id, c.name, ${ALERT_EMAIL_COLUMNS} from clients c where c.id = $1`, [
    id,
  ]);
  return rows[0] ? toAlertEmailSettings(rows[0]) : undefined;
};

export const listAlertEmailSettings = async (db: Queryable): Promise<Map<string, ClientAlertEmailSettings>> => {
  const { rows } = await db.query<AlertEmailRow>(`select c.id, c.name, ${ALERT_EMAIL_COLUMNS} from clients c`);
  return new Map(rows.map((row) => [row.id, toAlertEmailSettings(row)]));
};

export interface NewClient {
  id: string;
  name: string;
  environment: 'sandbox' | 'production';
  secretHash: string;
  scopes: Scope[];
  contactEmail: string;
  embedOrigins: string[];
  ipAllowlist: string[];
  widgetDisclosure: WidgetDisclosure;
  monitoringCadence: MonitoringCadence;
  alertEmails?: Partial<AlertEmailSettings>;
  isBootstrap: boolean;
  createdAt: Date;
}

/** Inserts unless the id exists; answers whether it inserted. */
export const insertClient = async (db: Queryable, c: NewClient): Promise<boolean> => {
  const { rowCount } = await db.query(
    `insert into clients (id, name, environment, secret_hash, scopes, contact_email, embed_origins, ip_allowlist,
       widget_disclosure, monitoring_cadence, is_bootstrap, created_at, alert_emails_enabled, alert_email_display_name,
       alert_email_logo_url, alert_email_brand_color, alert_email_reply_to, alert_email_link_url, alert_email_mode)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) on conflict (id) do nothing`,
    [
      c.id,
      c.name,
      c.environment,
      c.secretHash,
      c.scopes,
      c.contactEmail,
      c.embedOrigins,
      c.ipAllowlist,
      c.widgetDisclosure,
      c.monitoringCadence,
      c.isBootstrap,
      c.createdAt,
      ...alertEmailValues({ ...DEFAULT_ALERT_EMAIL_SETTINGS, ...c.alertEmails }),
    ],
  );
  return rowCount === 1;
};

const alertEmailValues = (s: AlertEmailSettings) => [
  s.enabled,
  s.displayName,
  s.logoUrl,
  s.brandColor,
  s.replyTo,
  s.linkUrl,
  s.mode,
];

const ALERT_EMAIL_COLUMN_OF: Record<keyof AlertEmailSettings, string> = {
  enabled: 'alert_emails_enabled',
  displayName: 'alert_email_display_name',
  logoUrl: 'alert_email_logo_url',
  brandColor: 'alert_email_brand_color',
  replyTo: 'alert_email_reply_to',
  linkUrl: 'alert_email_link_url',
  mode: 'alert_email_mode',
};

export interface ClientChanges {
  name?: string;
  contactEmail?: string;
  scopes?: Scope[];
  embedOrigins?: string[];
  ipAllowlist?: string[];
  rateLimits?: Partial<ClientRecord['rateLimits']>;
  widgetDisclosure?: WidgetDisclosure;
  monitoringCadence?: MonitoringCadence;
  /** Null clears a setting (back to its default); undefined leaves it as it is. */
  alertEmails?: Partial<AlertEmailSettings>;
}

/** Changes a client; every instance drops its cached tokens of it, which carry its scopes, origins and limits. */
export const updateClient = async (tx: WriteTx, id: string, changes: ClientChanges): Promise<boolean> => {
  const sets: string[] = [];
  const params: unknown[] = [id];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (changes.name !== undefined) set('name', changes.name);
  if (changes.contactEmail !== undefined) set('contact_email', changes.contactEmail);
  if (changes.scopes !== undefined) set('scopes', changes.scopes);
  if (changes.embedOrigins !== undefined) set('embed_origins', changes.embedOrigins);
  if (changes.ipAllowlist !== undefined) set('ip_allowlist', changes.ipAllowlist);
  if (changes.rateLimits?.auth !== undefined) set('rate_limit_auth', changes.rateLimits.auth);
  if (changes.rateLimits?.batch !== undefined) set('rate_limit_batch', changes.rateLimits.batch);
  if (changes.rateLimits?.userOps !== undefined) set('rate_limit_user_ops', changes.rateLimits.userOps);
  if (changes.widgetDisclosure !== undefined) set('widget_disclosure', changes.widgetDisclosure);
  if (changes.monitoringCadence !== undefined) set('monitoring_cadence', changes.monitoringCadence);
  for (const [key, value] of Object.entries(changes.alertEmails ?? {}) as [keyof AlertEmailSettings, unknown][]) {
    if (value !== undefined) set(ALERT_EMAIL_COLUMN_OF[key], value);
  }
  if (sets.length === 0) return Boolean(await findClient(tx, id));
  const { rowCount } = await tx.query(`update clients set ${sets.join(', ')} where id = $1`, params);
  tx.touches(clientTag(id));
  return rowCount === 1;
};

/**
 * The client's secret becomes `secretHash`. With `previousUntil` after `at`, the current hash is kept beside it until
 * then (and the one kept before it drops); otherwise no previous secret stays valid.
 */
export const replaceClientSecret = async (
  tx: WriteTx,
  id: string,
  secretHash: string,
  at: Date,
  previousUntil?: Date,
): Promise<boolean> => {
  const overlaps = previousUntil !== undefined && previousUntil > at;
  const { rowCount } = await tx.query(
    `update clients set
       previous_secret_hash = case when $4::boolean then secret_hash end,
       previous_secret_expires_at = case when $4::boolean then $5::timestamptz end,
       secret_hash = $2, secret_rotated_at = $3
     where id = $1`,
    [id, secretHash, at, overlaps, overlaps ? previousUntil : null],
  );
  tx.touches(clientTag(id));
  return rowCount === 1;
};

/** Every embed origin pattern registered by a client of this environment. */
export const listEmbedOriginPatterns = async (db: Queryable, environment: 'sandbox' | 'production'): Promise<string[]> => {
  const { rows } = await db.query<{ origin: string }>(
    'select distinct unnest(embed_origins) as origin from clients where environment = $1',
    [environment],
  );
  return rows.map((row) => row.origin);
};

/**
 * Revokes every live token of the client (a rotated secret, a reset demo client): access_tokens rows, by client.
 * `keepSession` names the console session (its stored hash) that asked for it, which stays open.
 */
export const revokeClientTokens = async (tx: WriteTx, clientId: string, at: Date, keepSession?: string): Promise<number> => {
  const { rowCount } = await tx.query(
    'update access_tokens set revoked_at = $2 where client_id = $1 and revoked_at is null and expires_at > $2',
    [clientId, at],
  );
  // The console's sessions and unused links end with them: a rotation is what a bank does when something leaked.
  await tx.query(
    'update console_sessions set ended_at = $2 where client_id = $1 and ended_at is null and token_hash is distinct from $3',
    [clientId, at, keepSession ?? null],
  );
  await tx.query('update console_links set used_at = $2 where client_id = $1 and used_at is null', [clientId, at]);
  // Every instance drops the tokens it cached for this client (when the caller's write transaction ends).
  tx.touches(clientTag(clientId));
  return rowCount;
};
