import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CreditApiError, CreditClient, CreditConnectionError, CreditOAuthError } from '@credit/sdk';
import type { Config } from '../config.ts';
import { loadConfig } from '../config.ts';
import type { Db } from '../db/db.ts';
import { MIGRATIONS, pendingMigrations } from '../db/migrate.ts';
import { EmbeddedDatabaseInUseError, embeddedDatabaseDir, openDatabase } from '../db/open.ts';
import { systemClock } from '../lib/clock.ts';
import { createLogger } from '../logger.ts';
import { auditedClients, chainSpooledEntries, exportTrail, pruneAuditTrails, verifyChain } from '../modules/audit/service.ts';
import { retentionCutoffs } from '../retention/policy.ts';
import { loadInstanceKeys } from '../security/instance-keys.ts';
import { TokenHasher } from '../security/token-hasher.ts';

// `pnpm audit` is pnpm's own vulnerability audit: this CLI is `pnpm run audit …` or `pnpm audit-trail …`.
const USAGE = `The audit trail (docs/operator/audit.md).

  pnpm run audit verify --client <clientId>     re-hash the client's whole hash chain (from its retention
                                                checkpoint, if any); exit 1 on a break
  pnpm run audit verify --all                   every client's chain
  pnpm run audit verify --api <url> [--from start]
                                                the chain of the client in CREDIT_CLIENT_ID (or --client) and
                                                CREDIT_CLIENT_SECRET, checked by the running service at <url>: what
                                                was recorded since its last check, or with --from start every entry
  pnpm run audit export --client <clientId> [--from <ISO time>] [--to <ISO time>] [--out <file>]
                                                JSON lines, oldest first, entries at or after --from and before --to
  pnpm run audit prune                          prune past AUDIT_RETENTION_YEARS now (the worker does it each sweep)

Same as \`pnpm audit-trail …\`. Uses DATABASE_URL (or the embedded database in DATA_DIR, which a running service holds:
use --api then) and TOKEN_SIGNING_KEY, which signs the checkpoints of pruned prefixes. Never migrates: the service
does, when it starts. With --api it needs neither: the service reads its own database.`;

const instant = (value: string | undefined, name: string): Date | undefined => {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new Error(`--${name} must be an ISO 8601 time such as 2026-01-01T00:00:00Z`);
  return at;
};

/** The database as the service left it: one with this release's schema, or a sentence saying why not. */
const openMigratedDatabase = async (config: Config, command: string): Promise<Db> => {
  if (!config.DATABASE_URL && !existsSync(embeddedDatabaseDir(config))) {
    throw new Error(
      `There is no database in DATA_DIR (${config.DATA_DIR}): point DATA_DIR at the service's, or set DATABASE_URL.`,
    );
  }
  const db = await openDatabase(config).catch((error: unknown) => {
    if (error instanceof EmbeddedDatabaseInUseError && command === 'verify') {
      throw new Error(
        `${error.message} To verify while it runs, ask it: pnpm run audit verify --api <its URL> (with CREDIT_CLIENT_ID and CREDIT_CLIENT_SECRET).`,
      );
    }
    throw error;
  });
  const pending = await pendingMigrations(db).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  if (pending.length === 0) return db;
  await db.close();
  const missing = pending.length === MIGRATIONS.length ? '' : ` to this release (missing ${pending.join(', ')})`;
  throw new Error(
    `The database is not migrated${missing}: start this release's service on it once (it migrates when it starts), then run this again.`,
  );
};

/** Why the service could not answer, as a sentence for the operator (the SDK's errors carry no advice). */
const serviceProblem = (api: string, error: unknown): Error => {
  if (error instanceof CreditConnectionError) {
    const cause = (error.cause as { cause?: { code?: string; message?: string } } | undefined)?.cause;
    const reason = cause?.code ?? cause?.message ?? error.message;
    return new Error(
      `Could not reach the service at ${api} (${reason}): --api takes the address its start banner prints as API.`,
    );
  }
  if (error instanceof CreditOAuthError) {
    return new Error(
      `The service at ${api} refused the client credentials (${error.code}): set CREDIT_CLIENT_ID and CREDIT_CLIENT_SECRET to a client of this service.`,
    );
  }
  if (error instanceof CreditApiError) {
    const advice =
      error.code === 'AUTHORIZATION_ERROR'
        ? ' The client needs the admin scope.'
        : error.retryAfter !== undefined
          ? ` Try again in ${error.retryAfter} s.`
          : '';
    return new Error(`The service at ${api} answered ${error.status} ${error.code}: ${error.message}${advice}`);
  }
  return new Error(
    `The service at ${api} did not answer as the API does: ${error instanceof Error ? error.message : String(error)}`,
  );
};

/**
 * `verify --api`: the running service checks the calling client's chain (`POST /v1/audit-events/verify`), so it works
 * while the service holds the embedded database, and needs neither DATABASE_URL nor the signing key here. `--from
 * start` asks it to re-hash every entry rather than only those since its newest checkpoint.
 */
const verifyThroughService = async (api: string, clientIdFlag: string | undefined, from: string | undefined): Promise<number> => {
  if (from !== undefined && from !== 'start' && from !== 'checkpoint') {
    throw new Error(`verify --api takes --from start (every entry) or --from checkpoint (the default), got "${from}"`);
  }
  if (!URL.canParse(api) || !/^https?:$/.test(new URL(api).protocol)) {
    throw new Error(`--api must be the service's http(s) address, such as http://127.0.0.1:3000 (got "${api}")`);
  }
  const clientId = clientIdFlag ?? process.env.CREDIT_CLIENT_ID;
  const clientSecret = process.env.CREDIT_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    throw new Error(
      'verify --api checks the trail of the client it calls as: set CREDIT_CLIENT_ID (or --client) and CREDIT_CLIENT_SECRET',
    );
  }
  // One attempt: an operator re-runs a check; waiting out retries would only hide that the service is not there.
  const credit = new CreditClient({ baseUrl: api, clientId, clientSecret, scope: 'admin', maxRetries: 0 });
  const result = await credit.call('verifyAuditTrail', from ? { query: { from } } : {}).catch((error: unknown) => {
    throw serviceProblem(api, error);
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result.ok ? 0 : 1;
};

const run = async (argv: string[]): Promise<number> => {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      client: { type: 'string' },
      all: { type: 'boolean' },
      from: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
      api: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.api !== undefined) {
    if (command !== 'verify') throw new Error('--api goes with verify only: export and prune read the database');
    if (values.all) throw new Error("--api checks the calling client's own trail: --all needs the database");
    return verifyThroughService(values.api, values.client, values.from);
  }
  const config = loadConfig();
  const db = await openMigratedDatabase(config, command);
  try {
    const tokens = new TokenHasher((await loadInstanceKeys(db, config)).tokenSigning);
    if (command === 'verify') {
      if (!values.client && !values.all) throw new Error('verify needs --client <clientId> or --all');
      if (values.from !== undefined)
        throw new Error('verify from the database always re-hashes every entry: --from goes with --api');
      // Read only: each chain as committed, in one snapshot (verify.ts); entries still in the spool join it later.
      const clients = values.all ? await auditedClients(db) : [values.client as string];
      let broken = 0;
      for (const clientId of clients) {
        const result = await verifyChain(db, tokens, clientId);
        if (!result.ok) broken += 1;
        process.stdout.write(`${JSON.stringify(result)}\n`);
      }
      return broken > 0 ? 1 : 0;
    }
    if (command === 'export') {
      if (!values.client) throw new Error('export needs --client <clientId>');
      // Reads answered shortly before may still be in the spool: chain them, so the export has every entry.
      await chainSpooledEntries({ db });
      const window = { from: instant(values.from, 'from'), to: instant(values.to, 'to') };
      const out = values.out ? createWriteStream(values.out) : process.stdout;
      const written = await exportTrail(db, values.client, window, async (line) => {
        if (!out.write(`${line}\n`)) await once(out, 'drain');
      });
      if (values.out)
        await new Promise<void>((resolve, reject) =>
          (out as ReturnType<typeof createWriteStream>).end((e?: Error | null) => (e ? reject(e) : resolve())),
        );
      process.stderr.write(`${written} entries\n`);
      return 0;
    }
    if (command === 'prune') {
      const cutoff = retentionCutoffs(config, systemClock.now()).audit;
      const ctx = { db, clock: systemClock, tokens, logger: createLogger(config.LOG_LEVEL, process.stderr) };
      const pruned = await pruneAuditTrails(ctx, cutoff);
      process.stdout.write(`${JSON.stringify({ pruned, before: cutoff.toISOString() })}\n`);
      return 0;
    }
    throw new Error(`Unknown command "${command}". Run with --help.`);
  } finally {
    await db.close();
  }
};

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
