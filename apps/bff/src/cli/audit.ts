import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { systemClock } from '../lib/clock.ts';
import { createLogger } from '../logger.ts';
import { auditedClients, chainSpooledEntries, exportTrail, pruneAuditTrails, verifyChain } from '../modules/audit/service.ts';
import { retentionCutoffs } from '../retention/policy.ts';
import { loadInstanceKeys } from '../security/instance-keys.ts';
import { TokenHasher } from '../security/token-hasher.ts';

// `pnpm audit` is pnpm's own vulnerability audit: this CLI is `pnpm run audit …` or `pnpm audit-trail …`.
const USAGE = `The audit trail (docs/operator/audit.md).

  pnpm run audit verify --client <clientId>     check the client's hash chain from its checkpoint; exit 1 on a break
  pnpm run audit verify --all                   every client's chain
  pnpm run audit export --client <clientId> [--from <ISO time>] [--to <ISO time>] [--out <file>]
                                                JSON lines, oldest first, entries at or after --from and before --to
  pnpm run audit prune                          prune past AUDIT_RETENTION_YEARS now (the worker does it each sweep)

Same as \`pnpm audit-trail …\`. Uses DATABASE_URL (or the embedded database in DATA_DIR: stop the server first) and
TOKEN_SIGNING_KEY, which signs the checkpoints of pruned prefixes.`;

const instant = (value: string | undefined, name: string): Date | undefined => {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new Error(`--${name} must be an ISO 8601 time such as 2026-01-01T00:00:00Z`);
  return at;
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db);
    // Reads answered shortly before may still be in the spool: chain them, so verify and export see every entry.
    await chainSpooledEntries({ db });
    const tokens = new TokenHasher((await loadInstanceKeys(db, config)).tokenSigning);
    if (command === 'verify') {
      if (!values.client && !values.all) throw new Error('verify needs --client <clientId> or --all');
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
