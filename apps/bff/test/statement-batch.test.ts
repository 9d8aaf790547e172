import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, isUniqueViolation } from '../src/db/db.ts';
import { StatementBatch } from '../src/db/statement-batch.ts';
import { openTestDb } from './helpers/test-db.ts';

/** db/statement-batch.ts: plain writes sent as one statement of data-modifying CTEs, atomic, one round trip. */
describe('a statement batch', () => {
  let db: Db;
  let statements = 0;
  let counted: Db;
  beforeAll(async () => {
    db = await openTestDb();
    await db.exec(`create table batch_parents (id text primary key, at timestamptz not null, data jsonb not null);
      create table batch_children (id text primary key, parent_id text not null references batch_parents (id))`);
    counted = {
      ...db,
      query: (sql, params) => {
        statements += 1;
        return db.query(sql, params);
      },
    };
  });
  afterAll(() => db.close());

  const parents = async () => (await db.query<{ id: string }>('select id from batch_parents order by id')).rows.map((r) => r.id);

  it('commits its writes together in one statement, parameters renumbered, foreign keys between them holding', async () => {
    const batch = new StatementBatch();
    const committed: string[] = [];
    const at = new Date('2026-11-26T08:00:00.000Z');
    await batch.query('insert into batch_parents (id, at, data) values ($1, $2, $3::jsonb)', ['p1', at, '{"n":1}']);
    await batch.query('insert into batch_children (id, parent_id) values ($1, $2)', ['c1', 'p1']);
    await batch.query('insert into batch_parents (id, at, data) values ($1, $2, $3::jsonb)', ['p2', at, '{"n":2}']);
    batch.afterCommit(() => committed.push('done'));
    statements = 0;
    await batch.run(counted);
    expect(statements).toBe(1);
    expect(committed).toEqual(['done']);
    const { rows } = await db.query<{ id: string; at: Date; data: unknown }>(
      'select id, at, data from batch_parents order by id',
    );
    expect(rows).toEqual([
      { id: 'p1', at, data: { n: 1 } },
      { id: 'p2', at, data: { n: 2 } },
    ]);
  });

  it('writes nothing when one of its writes fails, names the violated constraint, and runs no afterCommit', async () => {
    const batch = new StatementBatch();
    const committed: string[] = [];
    await batch.query('insert into batch_parents (id, at, data) values ($1, $2, $3::jsonb)', ['p3', new Date(), '{}']);
    await batch.query('insert into batch_parents (id, at, data) values ($1, $2, $3::jsonb)', ['p1', new Date(), '{}']);
    batch.afterCommit(() => committed.push('done'));
    const failure = await batch.run(db).catch((error: unknown) => error);
    expect(isUniqueViolation(failure, 'batch_parents_pkey')).toBe(true);
    expect(await parents()).toEqual(['p1', 'p2']);
    expect(committed).toEqual([]);
  });

  it('takes only plain writes: a statement whose rows would be read cannot join', async () => {
    const batch = new StatementBatch();
    await expect(batch.query('select 1')).rejects.toThrow('only plain insert, update and delete');
    await expect(batch.query("insert into batch_parents (id, at, data) values ('x', now(), '{}') returning id")).rejects.toThrow(
      'only plain insert',
    );
    await expect(batch.exec()).rejects.toThrow('cannot join');
  });
});
