import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../src/db/db.ts';
import { openDatabase } from '../src/db/open.ts';
import { appendEntries } from '../src/modules/audit/append-repo.ts';
import { entryHash } from '../src/modules/audit/chain.ts';
import { type AuditEventRow, EVENT_COLUMNS, toChainedEntry } from '../src/modules/audit/chain-repo.ts';
import type { PendingEntry } from '../src/modules/audit/entry.ts';
import { chainSpooledEntries, pruneAuditTrails, recordAudit, verifyChain, verifyTrail } from '../src/modules/audit/service.ts';
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
      // A page: the single-row reads of the starting state (the last sequence stored) do not count.
      if (!running && /\bfrom audit_events\b/.test(sql) && result.rows.length > 1) {
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

describe("the service's check, whose pages are separate statements", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers ok for a chain pruned between its pages: the moved retention checkpoint explains the gap', async () => {
    const { id: clientId } = await app.createClient();
    let n = 0;
    const read = () =>
      recordAudit(app.ctx, {
        type: 'personal_data.read',
        clientId,
        actor: { kind: 'client', id: clientId },
        requestId: `req_live${++n}`,
      });
    await Promise.all(Array.from({ length: 1100 }, read));
    app.clock.advance(8 * YEAR_MS);
    await Promise.all(Array.from({ length: 100 }, read));
    await chainSpooledEntries(app.ctx);
    const cutoff = new Date(app.clock.now().getTime() - 7 * YEAR_MS);

    // Outside a transaction the interruption runs between two pages, on PGlite too.
    const live = interruptedAfterFirstPage(app.db, async () => {
      await read();
      await chainSpooledEntries(app.ctx);
      await pruneAuditTrails(app.ctx, cutoff);
    });
    const result = await verifyTrail({ ...app.ctx, db: live.db }, clientId);
    await live.finished();
    // The first page (250 entries), then what the prune kept; the head as it was when the check began.
    expect(result).toEqual({ clientId, ok: true, checked: 350, from: 0, lastSeq: 1200 });
    expect(await verifyTrail(app.ctx, clientId)).toEqual({ clientId, ok: true, checked: 1, from: 1200, lastSeq: 1201 });
  });
});

let appended = 0;
/** `n` entries chained straight into the client's trail (no spool, no request): thousands a second. */
const appendTrail = async (db: Db, clientId: string, n: number, at = new Date()) => {
  for (let done = 0; done < n; done += 5000) {
    const entries = Array.from(
      { length: Math.min(5000, n - done) },
      (): PendingEntry => ({
        id: `aud_verify${String(++appended).padStart(12, '0')}`,
        type: 'credit_data.read',
        clientId,
        actorKind: 'client',
        actorId: clientId,
        userId: `usr_verify${appended % 97}`,
        requestId: `req_verify${appended}`,
        subject: { operationId: 'getCreditScore' },
        occurredAt: at,
      }),
    );
    await db.transaction((tx) => appendEntries(tx, entries));
  }
};

const checkpointSeqs = async (db: Db, clientId: string) =>
  (
    await db.query<{ seq: string }>('select seq from audit_verify_checkpoints where client_id = $1 order by seq', [clientId])
  ).rows.map((r) => Number(r.seq));

/**
 * What someone with write access to the database and no signing key can do to hide an edit: change entry `seq`, then
 * recompute every hash after it and the head's, so that every link holds again.
 */
const rewriteFrom = async (db: Db, clientId: string, seq: number) => {
  const { rows } = await db.query<AuditEventRow>(
    `select ${EVENT_COLUMNS} from audit_events where client_id = $1 and seq >= $2 order by seq`,
    [clientId, seq - 1],
  );
  const [before, ...rest] = rows.map(toChainedEntry);
  let prevHash = before?.hash as string;
  const rewritten = rest.map((entry) => {
    const edited = entry.seq === seq ? { ...entry, userId: 'usr_someoneelse' } : entry;
    const hash = entryHash(edited, edited.seq, prevHash);
    const row = { seq: edited.seq, userId: edited.userId, prevHash, hash };
    prevHash = hash;
    return row;
  });
  await db.query(
    `update audit_events e set user_id = v.user_id, prev_hash = v.prev_hash, hash = v.hash
     from unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) as v(seq, user_id, prev_hash, hash)
     where e.client_id = $1 and e.seq = v.seq`,
    [
      clientId,
      rewritten.map((r) => r.seq),
      rewritten.map((r) => r.userId),
      rewritten.map((r) => r.prevHash),
      rewritten.map((r) => r.hash),
    ],
  );
  await db.query('update audit_heads set hash = $2 where client_id = $1', [clientId, prevHash]);
};

describe('verification checkpoints', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('a check re-hashes only what was appended since the last one; from the start it re-hashes every entry', async () => {
    const { id: clientId } = await app.createClient();
    await appendTrail(app.db, clientId, 2500);
    expect(await verifyTrail(app.ctx, clientId)).toEqual({ clientId, ok: true, checked: 2500, from: 0, lastSeq: 2500 });
    expect(await checkpointSeqs(app.db, clientId)).toEqual([1000, 2000, 2500]);
    await appendTrail(app.db, clientId, 10);
    expect(await verifyTrail(app.ctx, clientId)).toEqual({ clientId, ok: true, checked: 10, from: 2500, lastSeq: 2510 });
    // The end of the previous check is superseded by this one's; every 1,000th stays.
    expect(await checkpointSeqs(app.db, clientId)).toEqual([1000, 2000, 2510]);
    expect(await verifyTrail(app.ctx, clientId, 'start')).toEqual({ clientId, ok: true, checked: 2510, from: 0, lastSeq: 2510 });
    // The CLI's check re-hashes everything and writes nothing.
    expect(await verifyChain(app.db, app.ctx.tokens, clientId)).toMatchObject({ ok: true, checked: 2510, from: 0 });
  });

  it('concurrent checks of one client share the work: one walks the trail, the others start where it ended', async () => {
    const { id: clientId } = await app.createClient();
    await appendTrail(app.db, clientId, 3000);
    const first = verifyTrail(app.ctx, clientId);
    await new Promise(setImmediate); // it has started: the next calls queue behind it
    const later = await Promise.all(Array.from({ length: 5 }, () => verifyTrail(app.ctx, clientId)));
    expect(await first).toEqual({ clientId, ok: true, checked: 3000, from: 0, lastSeq: 3000 });
    // One more check for all five, started once the first had ended, from the checkpoint it left.
    expect(later[0]).toEqual({ clientId, ok: true, checked: 0, from: 3000, lastSeq: 3000 });
    for (const result of later) expect(result).toBe(later[0]);
  });

  it('an entry edited before a checkpoint is found from the start; rewritten hashes and all, by any check', async () => {
    const { id: clientId } = await app.createClient();
    await appendTrail(app.db, clientId, 2500);
    expect(await verifyTrail(app.ctx, clientId)).toMatchObject({ ok: true, lastSeq: 2500 });
    const userAt = async () =>
      (
        await app.db.query<{ user_id: string }>('select user_id from audit_events where client_id = $1 and seq = 1500', [
          clientId,
        ])
      ).rows[0]?.user_id;
    const original = await userAt();
    await alterEntry(app.db, clientId, 1500);
    const entryId = await entryIdAt(app.db, clientId, 1500);
    expect(await verifyTrail(app.ctx, clientId)).toEqual({ clientId, ok: true, checked: 0, from: 2500, lastSeq: 2500 });
    expect(await verifyTrail(app.ctx, clientId, 'start')).toMatchObject({
      ok: false,
      checked: 1499,
      firstBroken: { reason: 'entry_altered', seq: 1500, entryId },
    });
    // Put back, then edited with every later hash and the head recomputed: all links hold, the checkpoints do not.
    await app.db.query('update audit_events set user_id = $2 where client_id = $1 and seq = 1500', [clientId, original]);
    expect(await verifyChain(app.db, app.ctx.tokens, clientId)).toMatchObject({ ok: true });
    await rewriteFrom(app.db, clientId, 1500);
    const atCheckpoint = { reason: 'entry_altered', seq: 2000, entryId: await entryIdAt(app.db, clientId, 2000) };
    expect(await verifyChain(app.db, app.ctx.tokens, clientId)).toMatchObject({
      ok: false,
      lastSeq: 1999,
      firstBroken: atCheckpoint,
    });
    // The newest checkpoint's entry no longer has its hash: the default check starts over and finds the same break.
    expect(await verifyTrail(app.ctx, clientId)).toMatchObject({ ok: false, from: 0, firstBroken: atCheckpoint });
  });

  it('a checkpoint no configured key signed is ignored; one past the head shows a cut-off tail', async () => {
    const { id: clientId } = await app.createClient();
    await appendTrail(app.db, clientId, 1200);
    await app.db.query(
      `insert into audit_verify_checkpoints (client_id, seq, hash, verified_at, signature) values ($1, 5000, $2, now(), $3)`,
      [clientId, 'a'.repeat(64), 'b'.repeat(64)],
    );
    expect(await verifyTrail(app.ctx, clientId)).toEqual({ clientId, ok: true, checked: 1200, from: 0, lastSeq: 1200 });
    // The tail deleted and the head moved back onto the last entry kept: every link and the head agree.
    await app.db.query('delete from audit_events where client_id = $1 and seq > 1100', [clientId]);
    await app.db.query(
      'update audit_heads set seq = 1100, hash = (select hash from audit_events where client_id = $1 and seq = 1100) where client_id = $1',
      [clientId],
    );
    const cut = { ok: false, lastSeq: 1100, firstBroken: { reason: 'missing_entry', seq: 1101, found: null } };
    expect(await verifyChain(app.db, app.ctx.tokens, clientId)).toMatchObject(cut);
    expect(await verifyTrail(app.ctx, clientId)).toMatchObject(cut);
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

  const verify = async (client: TestClient, options: { scope?: string; body?: unknown; query?: string } = {}) =>
    app.request('POST', `/v1/audit-events/verify${options.query ?? ''}`, {
      token: await app.token(client, options.scope),
      body: options.body,
    });

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
    // Each call mints its own token first: entry 3 here, and the check leaves a checkpoint where it ends.
    expect((await verify(bank)).body.data).toMatchObject({ ok: true, lastSeq: 3 });
    await alterEntry(app.db, bank.id, 2);
    // The default check starts at that checkpoint, whose entry still hashes as it did: an edit before it is not its to find.
    expect((await verify(bank)).body.data).toEqual({ clientId: bank.id, ok: true, checked: 1, from: 3, lastSeq: 4 });
    const res = await verify(bank, { query: '?from=start' });
    expect(res.status).toBe(200);
    const firstBroken = { reason: 'entry_altered', seq: 2, entryId: await entryIdAt(app.db, bank.id, 2) };
    expect(res.body.data).toEqual({ clientId: bank.id, ok: false, checked: 1, from: 0, lastSeq: 1, firstBroken });
    // An edit of the newest checkpoint's own entry is found by the default check too, which then walks from the start.
    await alterEntry(app.db, bank.id, 4);
    expect((await verify(bank)).body.data).toEqual({
      clientId: bank.id,
      ok: false,
      checked: 1,
      from: 0,
      lastSeq: 1,
      firstBroken,
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
    // There is no way to name another client: the operation takes no body, and no parameter but `from`.
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
      const full = await runProcess(builtEntry('cli/audit'), ['verify', '--api', app.url, '--from', 'start'], credentials);
      expect(full.code, full.stderr).toBe(1);
      expect(JSON.parse(full.stdout)).toMatchObject({ ok: false, checked: 0, from: 0, firstBroken: { seq: 1 } });
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
