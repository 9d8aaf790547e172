import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { usingPostgres } from './helpers/test-db.ts';

/**
 * On PostgreSQL, parameterised SQL runs as named prepared statements (one parse and plan per connection).
 * What must still hold: the same text in two schemas reads each schema's own table, and a table changed by
 * another instance's migration after a statement was prepared does not break that statement.
 */
const url = process.env.DATABASE_URL as string;
const schemas: string[] = [];
const dbs: Db[] = [];
const open = async (max = 1) => {
  const schema = `ps_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  const db = await openPostgres({ connectionString: url, schema, max });
  dbs.push(db);
  await db.exec('create table notes (id text primary key, body text not null)');
  return db;
};

afterAll(async () => {
  for (const db of dbs) await db.close();
  if (!usingPostgres) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

describe.skipIf(!usingPostgres)('prepared statements', () => {
  it('keeps schemas apart: one statement text, each schema’s own rows', async () => {
    const [one, two] = [await open(), await open()];
    await one.query('insert into notes (id, body) values ($1, $2)', ['n1', 'in one']);
    await two.query('insert into notes (id, body) values ($1, $2)', ['n1', 'in two']);
    const read = 'select body from notes where id = $1';
    for (let i = 0; i < 3; i++) {
      expect((await one.query(read, ['n1'])).rows).toEqual([{ body: 'in one' }]);
      expect((await two.query(read, ['n1'])).rows).toEqual([{ body: 'in two' }]);
    }
    // Parsed once on the connection (each pool here has one), not per call.
    const prepared = await one.query('select name from pg_prepared_statements where statement = $1', [read]);
    expect(prepared.rows).toHaveLength(1);
  });

  it('survives a table changed after its statements were prepared, in and out of transactions', async () => {
    const db = await open(1);
    await db.query('insert into notes (id, body) values ($1, $2)', ['n1', 'first']);
    const read = 'select * from notes where id = $1';
    expect((await db.query(read, ['n1'])).rows).toEqual([{ id: 'n1', body: 'first' }]);
    // Another instance's migration: the prepared `select *` now returns a different row type.
    await db.exec("alter table notes add column tag text not null default 'none'");
    expect((await db.query(read, ['n1'])).rows).toEqual([{ id: 'n1', body: 'first', tag: 'none' }]);

    await db.transaction((tx) => tx.query(read, ['n1']));
    await db.exec('alter table notes drop column tag');
    // Inside a transaction the stale plan fails that transaction; the connection it used is not reused.
    await expect(db.transaction((tx) => tx.query(read, ['n1']))).rejects.toThrow();
    expect((await db.transaction((tx) => tx.query(read, ['n1']))).rows).toEqual([{ id: 'n1', body: 'first' }]);
  });
});
