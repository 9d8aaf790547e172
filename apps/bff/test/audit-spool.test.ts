import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../src/core/principal.ts';
import { operationAudit } from '../src/modules/audit/operation-audit.ts';
import { verifyChain } from '../src/modules/audit/service.ts';
import { startTestApp, type TestApp, testConfig } from './helpers/harness.ts';
import { waitFor } from './helpers/webhook-receiver.ts';

describe('audit trail: the read spool in a split deployment', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const chainedRequestIds = async (clientId: string) =>
    (
      await app.db.query<{ request_id: string }>('select request_id from audit_events where client_id = $1 order by seq', [
        clientId,
      ])
    ).rows.map((r) => r.request_id);

  // First: the next test leaves a worker's chainer running in this process.
  it('drains the spool from an API process when no worker chains: rows still there at its next look', async () => {
    const bank = await app.createClient();
    const client = { id: bank.id } as Extract<Caller['principal'], { kind: 'access' }>['client'];
    const caller = { clientId: bank.id, principal: { kind: 'access', client, scopes: ['read'] } } as Caller;
    // Looks every 20 × 10 ms of the app's clock; chains at the second look what the first one saw.
    const look = 20 * 10;
    const api = operationAudit({ ...app.ctx, config: testConfig({ ROLE: 'api', AUDIT_CHAIN_INTERVAL_MS: '10' }) });
    await api.recordOperation('getUser', caller, 'req_alone1', { userId: 'usr_spooled0000000002' });
    await api.recordOperation('getUser', caller, 'req_alone2', { userId: 'usr_spooled0000000002' });
    expect(app.clock.pendingWaits()).toContain(look);
    app.clock.advance(look);
    // The first look leaves the rows to a worker that may still take them, and waits for its next look.
    await waitFor(() => expect(app.clock.pendingWaits()).toContain(look), 10_000);
    expect(await chainedRequestIds(bank.id)).toEqual([]);
    app.clock.advance(look);
    await waitFor(async () => expect(await chainedRequestIds(bank.id)).toEqual(['req_alone1', 'req_alone2']), 10_000);
    expect(await verifyChain(app.db, app.ctx.tokens, bank.id)).toMatchObject({ ok: true, lastSeq: 2 });
  });

  it('answers an API process’s reads once spooled, and the worker chains them without being asked', async () => {
    const bank = await app.createClient();
    const client = { id: bank.id } as Extract<Caller['principal'], { kind: 'access' }>['client'];
    const caller = { clientId: bank.id, principal: { kind: 'access', client, scopes: ['read'] } } as Caller;
    // The API process of a split deployment: it spools, and would chain only after an hour's fallback here.
    const api = operationAudit({ ...app.ctx, config: testConfig({ ROLE: 'api', AUDIT_CHAIN_INTERVAL_MS: '180000' }) });
    await Promise.all(
      ['req_spool1', 'req_spool2', 'req_spool3'].map((id) =>
        api.recordOperation('getUser', caller, id, { userId: 'usr_spooled0000000001' }),
      ),
    );
    const spooled = await app.db.query('select entries from audit_spool');
    expect(spooled.rows.length).toBeGreaterThan(0);
    expect(await chainedRequestIds(bank.id)).toEqual([]);

    // The worker's chainer polls the spool on its own, every 20 ms of the app's clock.
    operationAudit({ ...app.ctx, config: testConfig({ ROLE: 'worker', AUDIT_CHAIN_INTERVAL_MS: '20' }) });
    app.clock.advance(20);
    await waitFor(
      async () => expect((await chainedRequestIds(bank.id)).sort()).toEqual(['req_spool1', 'req_spool2', 'req_spool3']),
      10_000,
    );
    expect((await app.db.query('select 1 from audit_spool')).rows).toEqual([]);
    expect(await verifyChain(app.db, app.ctx.tokens, bank.id)).toMatchObject({ ok: true, lastSeq: 3 });
  });
});
