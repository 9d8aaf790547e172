import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainSpooledEntries, pruneAuditTrails, recordAudit, verifyChain } from '../src/modules/audit/service.ts';
import { runHousekeeping } from '../src/worker.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { runProcess } from './helpers/processes.ts';
import { builtEntry } from './helpers/server-build.ts';
import { sharedDatabase } from './helpers/shared-database.ts';

const YEAR_MS = 365.25 * 86_400_000;

describe('audit trail retention: a pruned prefix becomes a signed checkpoint', () => {
  let app: TestApp;
  let bank: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    bank = await app.createClient();
  });
  afterAll(() => app.close());

  const record = (n: number, clientId = bank.id) =>
    recordAudit(app.ctx, {
      type: 'personal_data.read',
      clientId,
      actor: { kind: 'client', id: clientId },
      userId: `usr_retained${n}`,
      subject: { operationId: 'getUser' },
    }).then(() => chainSpooledEntries(app.ctx));
  const verify = (clientId = bank.id) =>
    // Entries wait in the spool until chained; verify (as the CLI does) after draining it.
    chainSpooledEntries(app.ctx).then(() => verifyChain(app.db, app.ctx.tokens, clientId));

  it('prunes entries past AUDIT_RETENTION_YEARS in the housekeeping sweep and still verifies from the checkpoint', async () => {
    expect(app.ctx.config.AUDIT_RETENTION_YEARS).toBe(7);
    for (let i = 0; i < 7; i++) await record(i);
    app.clock.advance(3 * YEAR_MS);
    for (let i = 7; i < 10; i++) await record(i);
    app.clock.advance(5 * YEAR_MS); // the first seven are now 8 years old, the last three 5
    const { pruned } = await runHousekeeping(app.ctx);
    expect(pruned.auditEntries).toBe(7);
    expect(await verify()).toMatchObject({ ok: true, from: 7, checked: 3, lastSeq: 10 });
    const { rows } = await app.db.query<{ seq: string }>('select seq from audit_events where client_id = $1 order by seq', [
      bank.id,
    ]);
    expect(rows.map((r) => Number(r.seq))).toEqual([8, 9, 10]);
    // Appends go on from the head; a second sweep prunes nothing more.
    await record(10);
    expect((await runHousekeeping(app.ctx)).pruned.auditEntries).toBe(0);
    expect(await verify()).toMatchObject({ ok: true, from: 7, lastSeq: 11 });
  });

  it('prunes in chunks, each moving the checkpoint, and a whole trail down to its checkpoint', async () => {
    const chunked = await app.createClient();
    for (let i = 0; i < 10; i++) await record(i, chunked.id);
    app.clock.advance(8 * YEAR_MS);
    const cutoff = new Date(app.clock.now().getTime() - 7 * YEAR_MS);
    // Every trail is swept; this one's ten entries go in chunks of three.
    expect(await pruneAuditTrails(app.ctx, cutoff, 3)).toBeGreaterThanOrEqual(10);
    expect(await verify(chunked.id)).toMatchObject({ ok: true, from: 10, checked: 0, lastSeq: 10 });
    await record(11, chunked.id);
    expect(await verify(chunked.id)).toMatchObject({ ok: true, from: 10, checked: 1, lastSeq: 11 });
  });

  it('finds a forged checkpoint, a deleted kept entry, and never prunes past a broken link', async () => {
    const kept = await app.createClient();
    for (let i = 0; i < 5; i++) await record(i, kept.id);
    app.clock.advance(8 * YEAR_MS);
    for (let i = 5; i < 8; i++) await record(i, kept.id);
    await pruneAuditTrails(app.ctx, new Date(app.clock.now().getTime() - 7 * YEAR_MS));
    expect(await verify(kept.id)).toMatchObject({ ok: true, from: 5, lastSeq: 8 });
    await app.db.query('update audit_checkpoints set seq = seq + 1 where client_id = $1', [kept.id]);
    expect(await verify(kept.id)).toMatchObject({ ok: false, firstBroken: { reason: 'checkpoint_signature' } });
    await app.db.query('update audit_checkpoints set seq = seq - 1 where client_id = $1', [kept.id]);
    expect((await verify(kept.id)).ok).toBe(true);
    await app.db.query('delete from audit_events where client_id = $1 and seq = 6', [kept.id]);
    expect(await verify(kept.id)).toMatchObject({ ok: false, firstBroken: { reason: 'missing_entry', seq: 6, found: 7 } });

    const broken = await app.createClient();
    for (let i = 0; i < 6; i++) await record(i, broken.id);
    await app.db.query(`update audit_events set user_id = 'usr_other' where client_id = $1 and seq = 4`, [broken.id]);
    app.clock.advance(8 * YEAR_MS);
    const cutoff = new Date(app.clock.now().getTime() - 7 * YEAR_MS);
    // Pruning stops before the altered entry: the evidence of tampering is never replaced by a checkpoint.
    await pruneAuditTrails(app.ctx, cutoff, 2);
    expect(await verify(broken.id)).toMatchObject({ ok: false, from: 2, firstBroken: { reason: 'entry_altered', seq: 4 } });
  });
});

// Runs of the built CLI, each opening the database: 1.4-12 s at load 2-9.
describe('pnpm run audit (the operator CLI)', { timeout: 60_000 }, () => {
  it('verifies a chain, reports the first broken link with exit code 1, and exports a time range as JSON lines', async () => {
    const shared = await sharedDatabase('auditcli');
    try {
      let clientId: string;
      let middle = '';
      {
        const db = await shared.open();
        const app = await startTestApp({ db });
        const client = await app.createClient();
        clientId = client.id;
        for (let i = 0; i < 6; i++) {
          await recordAudit(app.ctx, { type: 'token.minted', clientId, actor: { kind: 'client', id: clientId } });
          app.clock.advance(60_000);
          if (i === 2) middle = app.clock.now().toISOString();
        }
        // As a service stopping cleanly does (main.ts): verify reads the chains, never the spool.
        await chainSpooledEntries(app.ctx);
        await app.close();
      }
      const cli = (...args: string[]) => runProcess(builtEntry('cli/audit'), args, shared.env);
      const ok = await cli('verify', '--client', clientId);
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ clientId, ok: true, checked: 6 });

      const exported = await cli('export', '--client', clientId, '--from', middle);
      expect(exported.code, exported.stderr).toBe(0);
      const lines = exported.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.sequence)).toEqual([4, 5, 6]);
      expect(lines[1].previousHash).toBe(lines[0].hash);
      expect(lines[0]).toMatchObject({ clientId, type: 'token.minted', actor: { kind: 'client', id: clientId } });

      {
        const db = await shared.open();
        await db.query('delete from audit_events where client_id = $1 and seq = 2', [clientId]);
        await db.close();
      }
      const broken = await cli('verify', '--client', clientId);
      expect(broken.code).toBe(1);
      expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, firstBroken: { reason: 'missing_entry', seq: 2 } });
    } finally {
      await shared.drop();
    }
  });
});
