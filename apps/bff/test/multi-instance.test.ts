import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { enrollment, startTestApp } from './helpers/harness.ts';
import { openTestDb, usingPostgres } from './helpers/test-db.ts';

/** A second connection to the same database, as another instance would have. */
const secondConnection = async (db: Awaited<ReturnType<typeof openTestDb>>) =>
  usingPostgres ? openPostgres({ connectionString: process.env.DATABASE_URL as string, schema: db.schema }) : db;

describe('several instances on one database', () => {
  it('run migrations concurrently without error or double application', async () => {
    const db = await openTestDb();
    const other = await secondConnection(db);
    const applied = await Promise.all([migrate(db), migrate(other), migrate(db)]);
    // Each migration applied exactly once, whichever instance got there first.
    expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => m.version).sort());
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    expect(rows[0]?.n).toBe(MIGRATIONS.length);
    if (other !== db) await other.close();
    await db.close();
  });

  it('act as one service: shared keys, tokens minted by one accepted by the other, data written by one read by the other', async () => {
    const db = await openTestDb();
    const one = await startTestApp({ db, keepDb: true });
    const otherDb = await secondConnection(db);
    const two = await startTestApp({ db: otherDb, keepDb: true });

    const client = await one.createClient();
    const token = await one.token(client);
    const enrolled = await one.request('POST', '/v1/users/enroll', { token, body: enrollment({ ssn: '5150' }) });
    const read = await two.request('GET', `/v1/users/${enrolled.body.data.userId}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.data.userId).toBe(enrolled.body.data.userId);

    const { rows } = await db.query<{ ssn_enc: string }>('select ssn_enc from users where id = $1', [enrolled.body.data.userId]);
    expect(two.ctx.cipher.decrypt(rows[0]?.ssn_enc as string, `users.ssn:${enrolled.body.data.userId}`)).toBe('5150');
    expect(two.ctx.tokens.hash('x')).toBe(one.ctx.tokens.hash('x'));

    await one.close();
    await two.close();
    if (otherDb !== db) await otherDb.close();
    await db.close();
  });

  it('keeps generated sandbox keys across restarts of the embedded database', async () => {
    const dir = `/tmp/credit-keys-${process.pid}-${Date.now()}`;
    const first = await startTestApp({ db: await openPglite(dir) });
    const hash = first.ctx.tokens.hash('probe');
    const sealed = first.ctx.cipher.encrypt('secret', 'ctx');
    await first.close();
    const second = await startTestApp({ db: await openPglite(dir) });
    expect(second.ctx.tokens.hash('probe')).toBe(hash);
    expect(second.ctx.cipher.decrypt(sealed, 'ctx')).toBe('secret');
    await second.close();
  });
});
