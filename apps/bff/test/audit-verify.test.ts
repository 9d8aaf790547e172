import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../src/db/db.ts';
import { openDatabase } from '../src/db/open.ts';
import { chainSpooledEntries, pruneAuditTrails, recordAudit, verifyChain } from '../src/modules/audit/service.ts';
import { ALL_SCOPES, startTestApp, type TestApp, type TestClient, testConfig } from './helpers/harness.ts';
import { runProcess } from './helpers/processes.ts';
import { builtEntry } from './helpers/server-build.ts';
import { sharedDatabase } from './helpers/shared-database.ts';
import { usingPostgres } from './helpers/test-db.ts';

const YEAR_MS = 365.25 * 86_400_000;

/**
 * `db` as verify sees it, running `during` once right after verify has read its first page of entries. On PostgreSQL
 * `during` commits before verify reads on. On PGlite (one session) it cannot run inside verify's transaction: it waits
 * for it, as a live service's writes do; read outside a transaction, it runs between the pages.
 */
const interruptedAfterFirstPage = (db: Db, during: () => Promise<unknown>) => {
  let running: Promise<unknown> | undefined;
  const reading = (q: Queryable, inTransaction: boolean): Queryable => ({
    ...q,
    async query<T>(sql: string, params?: unknown[]) {
      const result = await q.query<T>(sql, params);
      if (!running && /\bfrom audit_events\b/.test(sql)) {
        running = during();
        if (!(inTransaction && db.kind === 'pglite')) await running;
      }
      return result;
    },
  });
  return {
    db: { ...db, ...reading(db, false), transaction: (work) => db.transaction((tx) => work(reading(tx, true))) } as Db,
    finished: async () => {
      expect(running).toBeDefined();
      await running;
    },
  };
};

describe('audit verify while the service appends and prunes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers ok for a chain appended to and pruned between its pages, as of the moment it started', async () => {
    const { id: clientId } = await app.createClient();
    let n = 0;
    const read = () =>
      recordAudit(app.ctx, {
        type: 'personal_data.read',
        clientId,
        actor: { kind: 'client', id: clientId },
        requestId: `req_verify${++n}`,
      });
    // More than one page of verify (1,000 entries), most of them old enough to prune.
    await Promise.all(Array.from({ length: 1100 }, read));
    app.clock.advance(8 * YEAR_MS);
    await Promise.all(Array.from({ length: 100 }, read));
    await chainSpooledEntries(app.ctx);
    const cutoff = new Date(app.clock.now().getTime() - 7 * YEAR_MS);

    const live = interruptedAfterFirstPage(app.db, async () => {
      await read();
      await chainSpooledEntries(app.ctx);
      await pruneAuditTrails(app.ctx, cutoff);
    });
    expect(await verifyChain(live.db, app.ctx.tokens, clientId)).toEqual({
      clientId,
      ok: true,
      checked: 1200,
      from: 0,
      lastSeq: 1200,
    });
    await live.finished();
    // The append and the prune did happen: the next verify starts at the new checkpoint and ends at the new head.
    expect(await verifyChain(app.db, app.ctx.tokens, clientId)).toEqual({
      clientId,
      ok: true,
      checked: 101,
      from: 1100,
      lastSeq: 1201,
    });
  });
});

// Runs of the built CLI, each opening the database: seconds under load.
describe('pnpm run audit verify on a database the service never migrated', { timeout: 120_000 }, () => {
  const tablesOf = async (db: Db) =>
    (
      await db.query<{ table_name: string }>(
        'select table_name from information_schema.tables where table_schema = current_schema()',
      )
    ).rows;

  it('says it is not migrated, exits 2 and creates no table', async () => {
    const shared = await sharedDatabase('auditunmigrated');
    try {
      await (await shared.open()).close(); // an empty database: PGlite's files, or a PostgreSQL schema
      const verify = await runProcess(builtEntry('cli/audit'), ['verify', '--all'], shared.env);
      expect(verify.code).toBe(2);
      expect(verify.stderr.trim()).toMatch(/^The database is not migrated: start this release's service on it once/);
      expect(verify.stderr).not.toMatch(/\n\s+at /);
      const db = await shared.open();
      try {
        expect(await tablesOf(db)).toEqual([]);
      } finally {
        await db.close();
      }
    } finally {
      await shared.drop();
    }
  });

  it.skipIf(usingPostgres)('says there is no embedded database where DATA_DIR points, and creates none', async () => {
    const shared = await sharedDatabase('auditnodb');
    const verify = await runProcess(builtEntry('cli/audit'), ['verify', '--all'], shared.env);
    expect(verify.code).toBe(2);
    expect(verify.stderr.trim()).toMatch(/^There is no database in DATA_DIR/);
    expect(existsSync(path.join(shared.env.DATA_DIR as string, 'pgdata'))).toBe(false);
  });
});

/** Alters one chained entry as someone with write access to the database would, leaving its hash as it was. */
const alterEntry = (db: Db, clientId: string, seq: number) =>
  db.query(`update audit_events set user_id = 'usr_someoneelse' where client_id = $1 and seq = $2`, [clientId, seq]);

const entryIdAt = async (db: Db, clientId: string, seq: number) =>
  (await db.query<{ id: string }>('select id from audit_events where client_id = $1 and seq = $2', [clientId, seq])).rows[0]?.id;

describe("POST /v1/audit-events/verify: the running service checks the caller's chain", () => {
  let app: TestApp;
  beforeAll(async () => {
    // No chaining timer in the test's time: only the operation's own chaining can bring just-answered reads in.
    app = await startTestApp({ config: { AUDIT_CHAIN_INTERVAL_MS: '3600000' } });
  });
  afterAll(() => app.close());

  const verify = async (client: TestClient, options: { scope?: string; body?: unknown } = {}) =>
    app.request('POST', '/v1/audit-events/verify', { token: await app.token(client, options.scope), body: options.body });

  it('answers ok for an intact chain, the entries of requests answered just before included', async () => {
    const bank = await app.createClient();
    const token = await app.token(bank); // token.minted
    expect((await app.request('GET', '/v1/users', { token })).status).toBe(200); // personal_data.read
    // The verify request's own token: three entries, all still in the spool when the operation is called.
    const res = await verify(bank);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ clientId: bank.id, ok: true, checked: 3, from: 0, lastSeq: 3 });
  });

  it('answers 200 with ok: false and the first broken link once an entry is altered in the database', async () => {
    const bank = await app.createClient();
    await app.token(bank);
    await app.token(bank);
    expect((await verify(bank)).body.data.ok).toBe(true);
    await alterEntry(app.db, bank.id, 2);
    const res = await verify(bank);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      clientId: bank.id,
      ok: false,
      checked: 1,
      from: 0,
      lastSeq: 1,
      firstBroken: { reason: 'entry_altered', seq: 2, entryId: await entryIdAt(app.db, bank.id, 2) },
    });
  });

  it("checks only the caller's own chain: another client's broken chain is neither reported nor reachable", async () => {
    const tampered = await app.createClient();
    const bank = await app.createClient();
    await app.token(tampered);
    await app.token(tampered);
    await chainSpooledEntries(app.ctx);
    await alterEntry(app.db, tampered.id, 1);
    const res = await verify(bank);
    expect(res.body.data).toMatchObject({ clientId: bank.id, ok: true });
    // There is no way to name another client: the operation takes no body (and no parameter).
    const naming = await verify(bank, { body: { clientId: tampered.id } });
    expect(naming.status).toBe(400);
    expect(naming.body.error.code).toBe('VALIDATION_ERROR');
    expect((await verify(tampered)).body.data).toMatchObject({ clientId: tampered.id, ok: false });
  });

  it('answers 403 to a token without the admin scope', async () => {
    const bank = await app.createClient();
    const res = await verify(bank, { scope: ALL_SCOPES.filter((scope) => scope !== 'admin').join(' ') });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
  });
});

// The built CLI beside a service that holds the database (on PGlite, DATA_DIR's lock, as `pnpm start` takes it).
describe('pnpm run audit verify --api while the service runs', { timeout: 120_000 }, () => {
  it('asks the service: exit 0 on an intact chain, 1 on a broken one, 2 with a sentence when it is not there', async () => {
    const shared = await sharedDatabase('auditapi');
    const app = await startTestApp({ db: await openDatabase(testConfig(shared.env)) });
    try {
      const bank = await app.createClient();
      const credentials = { CREDIT_CLIENT_ID: bank.id, CREDIT_CLIENT_SECRET: bank.secret };
      const viaApi = () => runProcess(builtEntry('cli/audit'), ['verify', '--api', app.url], credentials);

      const intact = await viaApi();
      expect(intact.stderr).toBe('');
      expect(intact.code).toBe(0);
      // The CLI's own token exchange is recorded, and chained before the check.
      expect(JSON.parse(intact.stdout)).toEqual({ clientId: bank.id, ok: true, checked: 1, from: 0, lastSeq: 1 });

      if (!usingPostgres) {
        const direct = await runProcess(builtEntry('cli/audit'), ['verify', '--client', bank.id], shared.env);
        expect(direct.code).toBe(2);
        expect(direct.stderr).toMatch(/^The embedded database in .+ is in use by process \d+\. .*verify --api <its URL>/);
        expect(direct.stderr).not.toMatch(/\n\s+at /);
      }

      await alterEntry(app.db, bank.id, 1);
      const broken = await viaApi();
      expect(broken.code).toBe(1);
      expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, firstBroken: { reason: 'entry_altered', seq: 1 } });
    } finally {
      await app.close();
      await shared.drop();
    }
    const gone = await runProcess(builtEntry('cli/audit'), ['verify', '--api', app.url], {
      CREDIT_CLIENT_ID: 'cli_sbx_whoever',
      CREDIT_CLIENT_SECRET: 'sk_whatever',
    });
    expect(gone.code).toBe(2);
    expect(gone.stderr.trim()).toBe(
      `Could not reach the service at ${app.url} (ECONNREFUSED): --api takes the address its start banner prints as API.`,
    );
  });
});
