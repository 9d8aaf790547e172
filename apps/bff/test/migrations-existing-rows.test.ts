import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/db/migrate.ts';
import { hashSecret } from '../src/security/secret-hash.ts';
import { DEFAULT_SECRET, startTestApp } from './helpers/harness.ts';
import { openTestDb } from './helpers/test-db.ts';

/** Applies the migrations before `version` as `migrate` would, so data can be written in the older shape. */
const migrateUpTo = async (db: Awaited<ReturnType<typeof openTestDb>>, version: string) => {
  await db.exec('create table schema_migrations (version text primary key, applied_at timestamptz not null default now())');
  for (const migration of MIGRATIONS.slice(
    0,
    MIGRATIONS.findIndex((m) => m.version === version),
  )) {
    await db.exec(migration.sql);
    await db.query('insert into schema_migrations (version) values ($1)', [migration.version]);
  }
};

describe('migration 014 (the order consents were recorded in)', () => {
  it('numbers existing records by their recorded time, and records after it after them', async () => {
    const db = await openTestDb();
    try {
      await migrateUpTo(db, '014-consent-order');
      await db.exec(`
        insert into clients (id, name, environment, secret_hash, scopes, contact_email, created_at)
          values ('cli_a', 'A', 'sandbox', 'x', '{read}', 'a@example.test', now());
        insert into users (id, client_id, status, created_at) values ('usr_a', 'cli_a', 'active', now());
      `);
      // Stored out of time order (a test clock set back): ids and insertion order disagree with recorded_at.
      for (const [id, recordedAt] of [
        ['cns_c', '2026-03-01T00:00:00Z'],
        ['cns_a', '2026-01-01T00:00:00Z'],
        ['cns_b', '2026-02-01T00:00:00Z'],
      ]) {
        await db.query(
          `insert into consents (id, client_id, user_id, terms_version, method, purpose, recipients, accepted_at,
             recorded_at, expires_at, superseded_at)
           values ($1, 'cli_a', 'usr_a', 'v1', 'partner_attested', 'credit_monitoring', '{A}', $2, $2, $2::timestamptz + interval '1 year', $2)`,
          [id, recordedAt],
        );
      }

      // A second user whose open consent is not the latest by time: recorded in April after a test clock had dated
      // one in May (then deleted), and tied at the second with a record its id sorts after.
      await db.exec("insert into users (id, client_id, status, created_at) values ('usr_b', 'cli_a', 'active', now())");
      for (const [id, recordedAt, open] of [
        ['cns_b9', '2026-04-01T00:00:00Z', false],
        ['cns_b5', '2026-05-01T00:00:00Z', false],
        ['cns_b0', '2026-04-01T00:00:00Z', true],
      ] as const) {
        await db.query(
          `insert into consents (id, client_id, user_id, terms_version, method, purpose, recipients, accepted_at,
             recorded_at, expires_at, superseded_at)
           values ($1, 'cli_a', 'usr_b', 'v1', 'partner_attested', 'credit_monitoring', '{A}', $2, $2,
             $2::timestamptz + interval '1 year', case when $3 then null else $2::timestamptz end)`,
          [id, recordedAt, open],
        );
      }

      expect(await migrate(db)).toEqual(
        MIGRATIONS.slice(MIGRATIONS.findIndex((m) => m.version === '014-consent-order')).map((m) => m.version),
      );
      // The open consent is the last recorded: first in the consent state and the history, whatever its time.
      const second = await db.query<{ id: string }>("select id from consents where user_id = 'usr_b' order by seq desc");
      expect(second.rows.map((r) => r.id)).toEqual(['cns_b0', 'cns_b5', 'cns_b9']);
      await db.query(
        `insert into consents (id, client_id, user_id, terms_version, method, purpose, recipients, accepted_at,
           recorded_at, expires_at)
         values ('cns_0', 'cli_a', 'usr_a', 'v1', 'widget', 'credit_monitoring', '{A}', '2025-01-01', '2025-01-01', '2027-01-01')`,
      );
      const { rows } = await db.query<{ id: string }>("select id from consents where user_id = 'usr_a' order by seq");
      expect(rows.map((r) => r.id)).toEqual(['cns_a', 'cns_b', 'cns_c', 'cns_0']);
      // `generated always`: the order cannot be written by hand.
      await expect(db.query("update consents set seq = 1 where id = 'cns_0'")).rejects.toThrow();
    } finally {
      await db.close();
    }
  });
});

describe('migration 016 (the file on record)', () => {
  it('brings the next pull of every user pulled before it forward to now, keeping period and due date', async () => {
    const db = await openTestDb();
    try {
      await migrateUpTo(db, '016-file-on-record');
      await db.exec(`
        insert into clients (id, name, environment, secret_hash, scopes, contact_email, created_at)
          values ('cli_a', 'A', 'sandbox', 'x', '{read}', 'a@example.test', now());
        insert into users (id, client_id, status, created_at, monitoring_period, monitoring_due_at, monitoring_next_attempt_at)
          values ('usr_pulled', 'cli_a', 'active', now(), 3, '2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z'),
                 ('usr_never', 'cli_a', 'active', now(), 0, '2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z'),
                 ('usr_unscheduled', 'cli_a', 'active', now(), 2, '2030-01-01T00:00:00Z', null);
        insert into credit_snapshots (user_id, client_id, snapshot_enc, as_of, taken_at)
          values ('usr_pulled', 'cli_a', 'sealed', now(), now()), ('usr_unscheduled', 'cli_a', 'sealed', now(), now());
      `);
      await migrate(db);
      const { rows } = await db.query<{ id: string; period: number; due: Date; next: Date | null }>(
        `select id, monitoring_period as period, monitoring_due_at as due, monitoring_next_attempt_at as next
         from users order by id`,
      );
      const soon = (at: Date | null) => at !== null && Math.abs(new Date(at).getTime() - Date.now()) < 60_000;
      const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
      expect(soon(byId.usr_pulled?.next ?? null)).toBe(true);
      expect(byId.usr_pulled).toMatchObject({ period: 3, due: new Date('2030-01-01T00:00:00Z') });
      expect(byId.usr_never?.next).toEqual(new Date('2030-01-01T00:00:00Z'));
      expect(byId.usr_unscheduled?.next).toBeNull();
    } finally {
      await db.close();
    }
  });
});

describe('migration 018 (each client’s own offers)', () => {
  it('keeps clicked offers of the shared catalogue as the client’s archived offers, conversions as funded, counts seeded', async () => {
    const db = await openTestDb();
    await migrateUpTo(db, '018-offers-program');
    await db.query(
      `insert into clients (id, name, environment, secret_hash, scopes, contact_email, created_at)
       values ('cli_sbx_legacybank', 'Legacy Bank', 'sandbox', $1, '{read,write,offers,webhooks,admin}', 'a@example.test', now()),
              ('cli_sbx_quietbank', 'Quiet Bank', 'sandbox', 'x', '{read}', 'q@example.test', now())`,
      [await hashSecret(DEFAULT_SECRET)],
    );
    await db.exec(`
      insert into users (id, client_id, external_user_id, status, created_at, verified_at) values
        ('usr_legacyClicker01', 'cli_sbx_legacybank', 'legacy-a', 'active', '2026-05-01T09:00:00Z', '2026-05-02T10:00:00Z'),
        ('usr_legacyPending01', 'cli_sbx_legacybank', 'legacy-b', 'pending_verification', '2026-05-01T11:00:00Z', null),
        ('usr_quietCustomer01', 'cli_sbx_quietbank', 'quiet-a', 'pending_verification', '2026-05-03T09:00:00Z', null);
      insert into consents (id, client_id, user_id, terms_version, method, purpose, recipients, accepted_at, recorded_at, expires_at)
        values ('cns_legacy0000001', 'cli_sbx_legacybank', 'usr_legacyClicker01', 'v1', 'sandbox_default', 'credit_monitoring',
          '{Legacy Bank}', '2026-05-01T09:00:00Z', '2026-05-01T09:00:00Z', '2027-05-01T09:00:00Z');
      insert into offer_clicks (id, user_id, client_id, offer_id, clicked_at, recorded_at) values
        ('clk_legacyCashBack1', 'usr_legacyClicker01', 'cli_sbx_legacybank', 'off_nwbCashBack001', '2026-05-05T12:00:00Z', '2026-05-05T12:00:00Z'),
        ('clk_legacyCashBack2', 'usr_legacyClicker01', 'cli_sbx_legacybank', 'off_nwbCashBack001', '2026-05-06T12:00:00Z', '2026-05-06T12:00:00Z'),
        ('clk_legacyAutoRefi1', 'usr_legacyClicker01', 'cli_sbx_legacybank', 'off_fcuAutoRefi001', '2026-05-06T13:00:00Z', '2026-05-06T13:00:00Z');
      insert into offer_conversions (id, click_id, user_id, client_id, offer_id, converted_at) values
        ('cnv_legacy0000001', 'clk_legacyCashBack1', 'usr_legacyClicker01', 'cli_sbx_legacybank', 'off_nwbCashBack001', '2026-05-07T08:00:00Z');
    `);
    await migrate(db);

    const offers = await db.query<{ client_id: string; id: string; status: string; version: number; created_at: Date }>(
      'select client_id, id, status, version, created_at from offers order by id',
    );
    expect(
      offers.rows.map((r) => ({ ...r, version: Number(r.version), created_at: new Date(r.created_at).toISOString() })),
    ).toEqual([
      {
        client_id: 'cli_sbx_legacybank',
        id: 'off_fcuAutoRefi001',
        status: 'archived',
        version: 1,
        created_at: '2026-05-06T13:00:00.000Z',
      },
      {
        client_id: 'cli_sbx_legacybank',
        id: 'off_nwbCashBack001',
        status: 'archived',
        version: 1,
        created_at: '2026-05-05T12:00:00.000Z',
      },
    ]);
    const versions = await db.query<{ offer_id: string }>('select offer_id from offer_versions order by offer_id');
    expect(versions.rows.map((r) => r.offer_id)).toEqual(['off_fcuAutoRefi001', 'off_nwbCashBack001']);

    // Through the API: the archived offers, the click funded before stages existed, outcomes still taken, the counts.
    const app = await startTestApp({ db });
    try {
      const token = await app.token({ id: 'cli_sbx_legacybank', secret: DEFAULT_SECRET });
      const archived = await app.request('GET', '/v1/offers?status=archived', { token });
      expect(archived.body.data.map((o: { offerId: string; name: string }) => [o.offerId, o.name])).toEqual([
        ['off_fcuAutoRefi001', 'Fabrikam Auto Refinance'],
        ['off_nwbCashBack001', 'Northwind Cash Back Card'],
      ]);
      const funded = await app.request('GET', '/v1/offers/clicks/clk_legacyCashBack1', { token });
      expect(funded.body.data).toEqual({
        clickId: 'clk_legacyCashBack1',
        offerId: 'off_nwbCashBack001',
        offerVersion: null,
        userId: 'usr_legacyClicker01',
        externalUserId: 'legacy-a',
        clickedAt: '2026-05-05T12:00:00.000Z',
        stage: 'funded',
        outcomes: [
          { stage: 'funded', amount: null, occurredAt: '2026-05-07T08:00:00.000Z', recordedAt: '2026-05-07T08:00:00.000Z' },
        ],
      });
      const backwards = await app.request('POST', '/v1/offers/clicks/clk_legacyCashBack1/outcomes', {
        token,
        body: { stage: 'applied' },
      });
      expect(backwards.status).toBe(409);
      const applied = await app.request('POST', '/v1/offers/clicks/clk_legacyAutoRefi1/outcomes', {
        token,
        body: { stage: 'applied' },
      });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect(applied.body.data).toMatchObject({ offerVersion: null, stage: 'applied' });

      const results = await app.request('GET', '/v1/offers/results?from=2026-05-01&to=2026-05-31&interval=month', { token });
      expect(results.body.data.totals).toEqual({
        enrolled: 2,
        verified: 1,
        consented: 1,
        looked: 0,
        impressions: 0,
        clicks: 3,
        applications: 1,
        approvals: 1,
        declines: 0,
        funded: 1,
        fundedAmount: 0,
      });
      const byOffer = Object.fromEntries(
        results.body.data.offers.map((o: { offerId: string; clicks: number; funded: number }) => [
          o.offerId,
          [o.clicks, o.funded],
        ]),
      );
      expect(byOffer).toMatchObject({ off_nwbCashBack001: [2, 1], off_fcuAutoRefi001: [1, 0] });
    } finally {
      await app.close();
    }
  });
});
