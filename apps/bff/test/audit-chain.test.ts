import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../src/bootstrap.ts';
import type { AppContext } from '../src/context.ts';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createLogger } from '../src/logger.ts';
import { entryHash, GENESIS_HASH } from '../src/modules/audit/chain.ts';
import { chainSpooledEntries } from '../src/modules/audit/chainer.ts';
import { recordAudit } from '../src/modules/audit/record.ts';
import { verifyChain } from '../src/modules/audit/verify.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { startTestApp, type TestApp, type TestClient, testConfig } from './helpers/harness.ts';
import { openTestDb, usingPostgres } from './helpers/test-db.ts';

describe('audit trail: the hash chain', () => {
  let app: TestApp;
  let bank: TestClient;
  let other: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    bank = await app.createClient();
    other = await app.createClient();
  });
  afterAll(() => app.close());

  const record = (clientId: string, n: number) =>
    recordAudit(app.ctx, {
      type: 'credit_data.read',
      clientId,
      actor: { kind: 'client', id: clientId },
      userId: `usr_test${n}`,
      requestId: `req_test${n}`,
      subject: { operationId: 'getCreditScore' },
    }).then(() => chainSpooledEntries(app.ctx));
  const verify = (clientId: string) =>
    // Entries wait in the spool until chained; verify (as the CLI does) after draining it.
    chainSpooledEntries(app.ctx).then(() => verifyChain(app.db, app.ctx.tokens, clientId));

  it('chains concurrent appends of two clients, in spool batches and in transactions, without gaps', async () => {
    // Every entry is spooled (a write's in its transaction, with no chain lock held) and chained afterwards, as
    // whatever lists, verifies or exports the trail does first.
    await Promise.all([
      ...Array.from({ length: 60 }, (_, i) => record(i % 2 ? bank.id : other.id, i)),
      ...Array.from({ length: 5 }, () =>
        app.db.transaction((tx) =>
          recordAudit(app.ctx, { type: 'token.minted', clientId: bank.id, actor: { kind: 'client', id: bank.id } }, tx),
        ),
      ),
    ]);
    await chainSpooledEntries(app.ctx);
    expect((await app.db.query('select 1 from audit_spool')).rows).toEqual([]);
    expect(await verify(bank.id)).toMatchObject({ ok: true, checked: 35, lastSeq: 35 });
    expect(await verify(other.id)).toMatchObject({ ok: true, checked: 30, lastSeq: 30 });
    const { rows } = await app.db.query<{ seq: string }>('select seq from audit_events where client_id = $1 order by seq', [
      bank.id,
    ]);
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
  });

  it('an entry rolled back with its transaction leaves no gap', async () => {
    await expect(
      app.db.transaction(async (tx) => {
        await recordAudit(app.ctx, { type: 'user.deleted', clientId: other.id, actor: { kind: 'client', id: other.id } }, tx);
        throw new Error('the change it recorded failed');
      }),
    ).rejects.toThrow('failed');
    await record(other.id, 99);
    expect(await verify(other.id)).toMatchObject({ ok: true, lastSeq: 31 });
  });

  it('finds an edited entry, a rewritten entry, a deleted entry and a cut-off tail', async () => {
    const tampered = await app.createClient();
    for (let i = 0; i < 10; i++) await record(tampered.id, i);
    expect((await verify(tampered.id)).ok).toBe(true);

    await app.db.query(`update audit_events set user_id = 'usr_someoneelse' where client_id = $1 and seq = 4`, [tampered.id]);
    expect(await verify(tampered.id)).toMatchObject({ ok: false, firstBroken: { reason: 'entry_altered', seq: 4 } });
    // Restoring the field restores the chain; editing the hash too breaks the next link.
    await app.db.query(`update audit_events set user_id = 'usr_test3', hash = repeat('a', 64) where client_id = $1 and seq = 4`, [
      tampered.id,
    ]);
    expect(await verify(tampered.id)).toMatchObject({ ok: false, firstBroken: { reason: 'entry_altered', seq: 4 } });
    await app.db.query(`update audit_events set hash = prev_hash where client_id = $1 and seq = 4`, [tampered.id]);
    const deleted = await app.createClient();
    for (let i = 0; i < 10; i++) await record(deleted.id, i);
    await app.db.query('delete from audit_events where client_id = $1 and seq = 7', [deleted.id]);
    expect(await verify(deleted.id)).toMatchObject({
      ok: false,
      checked: 6,
      firstBroken: { reason: 'missing_entry', seq: 7, found: 8 },
    });
    const cut = await app.createClient();
    for (let i = 0; i < 5; i++) await record(cut.id, i);
    await app.db.query('delete from audit_events where client_id = $1 and seq >= 4', [cut.id]);
    expect(await verify(cut.id)).toMatchObject({ ok: false, firstBroken: { reason: 'missing_entry', seq: 4, found: null } });
  });
});

describe.skipIf(!usingPostgres)('audit trail: a write and its entry', () => {
  let app: TestApp;
  let bank: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    bank = await app.createClient();
  });
  afterAll(() => app.close());

  it('chains entries in the order they were committed: a pull after a consent never comes first', async () => {
    const other = await app.createClient();
    const actor = { kind: 'client' as const, id: other.id };
    await app.db.transaction((tx) => recordAudit(app.ctx, { type: 'consent.given', clientId: other.id, actor }, tx));
    // Outside a transaction, as a bureau pull is recorded: it used to join its chain at once, ahead of the consent.
    await recordAudit(app.ctx, { type: 'bureau.pull', clientId: other.id, actor });
    await chainSpooledEntries(app.ctx);
    const { rows } = await app.db.query<{ type: string }>('select type from audit_events where client_id = $1 order by seq', [
      other.id,
    ]);
    expect(rows.map((r) => r.type)).toEqual(['consent.given', 'bureau.pull']);
  });

  it("chains a write's entry once its transaction committed, without another request to prompt it", async () => {
    const interval = 20;
    const quiet = await startTestApp({ config: { AUDIT_CHAIN_INTERVAL_MS: String(interval) } });
    try {
      const client = await quiet.createClient();
      const actor = { kind: 'client' as const, id: client.id };
      await quiet.db.transaction(async (tx) => {
        await recordAudit(quiet.ctx, { type: 'consent.given', clientId: client.id, actor }, tx);
        // Past the chaining interval: a pass prompted before the commit would run now, find nothing and not come back.
        quiet.clock.advance(interval);
      });
      // The commit prompts the pass: it waits one interval on the app's clock.
      expect(quiet.clock.pendingWaits()).toContain(interval);
      quiet.clock.advance(interval);
      const chained = async () =>
        (await quiet.db.query('select 1 from audit_events where client_id = $1', [client.id])).rows.length;
      await expect.poll(chained, { timeout: 5_000 }).toBe(1);
    } finally {
      await quiet.close();
    }
  });

  it("holds no lock on the client's chain while the write's transaction is open", async () => {
    // Appending to the chain inside the transaction locked the client's chain head until the commit: a second entry
    // of the same client, from outside, waited for it (here: forever, since the transaction waits for the second).
    await app.db.transaction(async (tx) => {
      await recordAudit(app.ctx, { type: 'token.minted', clientId: bank.id, actor: { kind: 'client', id: bank.id } }, tx);
      await recordAudit(app.ctx, {
        type: 'credit_data.read',
        clientId: bank.id,
        actor: { kind: 'client', id: bank.id },
        subject: { operationId: 'getCreditScore' },
      });
    });
    await chainSpooledEntries(app.ctx);
    const { rows } = await app.db.query<{ type: string; subject: Record<string, string> }>(
      'select type, subject from audit_events where client_id = $1 order by seq',
      [bank.id],
    );
    // Both in spool order: the write's row was inserted first (its transaction committed later), the read's second.
    expect(rows).toEqual([
      { type: 'token.minted', subject: {} },
      { type: 'credit_data.read', subject: { operationId: 'getCreditScore' } },
    ]);
    expect(await verifyChain(app.db, app.ctx.tokens, bank.id)).toMatchObject({ ok: true, checked: 2 });
  }, 15_000);
});

describe.skipIf(!usingPostgres)('audit trail: several processes appending to one client', () => {
  it('keeps one gap-free chain when two instances record the same client at once', async () => {
    const base = (await openTestDb()) as Db & { schema: string };
    const other = await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema: base.schema, max: 5 });
    const logger = createLogger('silent');
    try {
      const first = await buildContext({ config: testConfig(), db: base, logger });
      const second = await buildContext({ config: testConfig(), db: other, logger });
      const { client } = await createClient(base, first.clock, 'sandbox', { name: 'Shared', contactEmail: 'ops@shared.test' });
      const read = (ctx: AppContext, n: number) =>
        recordAudit(ctx, {
          type: 'personal_data.read',
          clientId: client.id,
          actor: { kind: 'client', id: client.id },
          requestId: `req_${n}`,
        });
      await Promise.all(Array.from({ length: 400 }, (_, n) => read(n % 2 ? first : second, n)));
      // Both instances chain at once, each through its own connection pool, contending for the chainer's lock.
      await Promise.all([chainSpooledEntries(first), chainSpooledEntries(second)]);
      expect(await verifyChain(base, first.tokens, client.id)).toMatchObject({ ok: true, checked: 400, lastSeq: 400 });
      const { rows } = await base.query<{ n: number }>('select count(distinct request_id)::int as n from audit_events');
      expect(rows[0]?.n).toBe(400);
    } finally {
      await other.close();
      await base.close();
    }
  });

  // Chains written by earlier releases must keep verifying: the bytes hashed for an entry are fixed (a change to them
  // is a new format version, the array's first element, with verify.ts reading both).
  it('hashes an entry as every earlier release did', () => {
    const entry = {
      id: 'aud_pinned0000000000000',
      type: 'personal_data.read' as const,
      clientId: 'cli_sbx_pinned',
      actorKind: 'client' as const,
      actorId: 'cli_sbx_pinned',
      userId: 'usr_pinned',
      requestId: 'req_pinned',
      subject: { operationId: 'getUser', alertId: 'alt_1' },
      occurredAt: new Date('2026-11-26T01:02:03.456Z'),
    };
    expect(entryHash(entry, 7, GENESIS_HASH)).toBe('862d9dbad2192ed109a224aaca4cecfb2742a6e0f32a4198d7b0eb56ec2384ba');
  });
});
