import type { Db, Queryable } from './db.ts';
import * as platform from './migrations/001-platform.ts';
import * as webhooks from './migrations/003-webhooks.ts';
import * as credit from './migrations/004-credit.ts';
import * as monitoring from './migrations/005-monitoring.ts';
import * as retention from './migrations/006-retention.ts';
import * as sandboxClocks from './migrations/007-sandbox-clocks.ts';
import * as consent from './migrations/008-consent.ts';
import * as audit from './migrations/009-audit.ts';
import * as webhookAttemptError from './migrations/010-webhook-attempt-error.ts';
import * as widgetDisclosure from './migrations/012-widget-disclosure.ts';
import * as auditSpool from './migrations/013-audit-spool.ts';
import * as consentOrder from './migrations/014-consent-order.ts';
import * as manualRefreshLease from './migrations/015-manual-refresh-lease.ts';
import * as fileOnRecord from './migrations/016-file-on-record.ts';
import * as webhookRecovery from './migrations/017-webhook-recovery.ts';
import * as offersProgram from './migrations/018-offers-program.ts';
import * as auditCheckpoints from './migrations/019-audit-checkpoints.ts';
import * as verificationSessionLookup from './migrations/020-verification-session-lookup.ts';
import * as webhookHealth from './migrations/021-webhook-health.ts';
import * as eventPositions from './migrations/022-event-positions.ts';
import * as monitoringCadence from './migrations/023-monitoring-cadence.ts';
import * as bureauTriggers from './migrations/024-bureau-triggers.ts';
import * as alertEmails from './migrations/025-alert-emails.ts';
import * as consoleSessions from './migrations/026-console.ts';
import * as pullWriteCosts from './migrations/027-pull-write-costs.ts';
import * as inlineSnapshots from './migrations/028-inline-snapshots.ts';
import * as clientSecretOverlap from './migrations/029-client-secret-overlap.ts';

/** Ordered, append-only. A migration never changes once released; add a new one instead. */
export const MIGRATIONS: { version: string; sql: string }[] = [
  { version: '001-platform', sql: platform.sql },
  { version: '003-webhooks', sql: webhooks.sql },
  { version: '004-credit', sql: credit.sql },
  { version: '005-monitoring', sql: monitoring.sql },
  { version: '006-retention', sql: retention.sql },
  { version: '007-sandbox-clocks', sql: sandboxClocks.sql },
  { version: '008-consent', sql: consent.sql },
  { version: '009-audit', sql: audit.sql },
  { version: '010-webhook-attempt-error', sql: webhookAttemptError.sql },
  { version: '012-widget-disclosure', sql: widgetDisclosure.sql },
  { version: '013-audit-spool', sql: auditSpool.sql },
  { version: '014-consent-order', sql: consentOrder.sql },
  { version: '015-manual-refresh-lease', sql: manualRefreshLease.sql },
  { version: '016-file-on-record', sql: fileOnRecord.sql },
  { version: '017-webhook-recovery', sql: webhookRecovery.sql },
  { version: '018-offers-program', sql: offersProgram.sql },
  { version: '019-audit-checkpoints', sql: auditCheckpoints.sql },
  { version: '020-verification-session-lookup', sql: verificationSessionLookup.sql },
  { version: '021-webhook-health', sql: webhookHealth.sql },
  { version: '022-event-positions', sql: eventPositions.sql },
  { version: '023-monitoring-cadence', sql: monitoringCadence.sql },
  { version: '024-bureau-triggers', sql: bureauTriggers.sql },
  { version: '025-alert-emails', sql: alertEmails.sql },
  { version: '026-console', sql: consoleSessions.sql },
  { version: '027-pull-write-costs', sql: pullWriteCosts.sql },
  { version: '028-inline-snapshots', sql: inlineSnapshots.sql },
  { version: '029-client-secret-overlap', sql: clientSecretOverlap.sql },
];

// Any fixed 64-bit number shared by every instance: whoever holds it migrates, the others wait.
const MIGRATION_LOCK_ID = 7_310_442_918;

/**
 * Applies pending migrations in one transaction under an advisory lock, so instances that start
 * together on one database neither race nor apply a migration twice.
 */
export const migrate = async (db: Db): Promise<string[]> =>
  db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await tx.query(
      'create table if not exists schema_migrations (version text primary key, applied_at timestamptz not null default now())',
    );
    const { rows } = await tx.query<{ version: string }>('select version from schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending = MIGRATIONS.filter((m) => !applied.has(m.version));
    for (const migration of pending) {
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version) values ($1)', [migration.version]);
    }
    return pending.map((m) => m.version);
  });

/** The migrations of this release the database lacks (every one on a database never migrated); reads, never creates. */
export const pendingMigrations = async (db: Queryable): Promise<string[]> => {
  const { rows: tables } = await db.query<{ found: boolean }>("select to_regclass('schema_migrations') is not null as found");
  if (!tables[0]?.found) return MIGRATIONS.map((m) => m.version);
  const { rows } = await db.query<{ version: string }>('select version from schema_migrations');
  const applied = new Set(rows.map((row) => row.version));
  return MIGRATIONS.filter((m) => !applied.has(m.version)).map((m) => m.version);
};
