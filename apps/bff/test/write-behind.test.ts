import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../src/db/db.ts';
import { WriteBehind } from '../src/db/write-behind.ts';
import { openTestDb } from './helpers/test-db.ts';

/** db/write-behind.ts: a group commit's plain writes held and sent together, same-shaped inserts as one statement. */
describe('a write-behind transaction', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
    await db.exec(`create table wb_points (user_id text not null, score integer not null, on_day date not null);
      create table wb_latest (user_id text primary key, score integer not null, note text);`);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    await db.exec('delete from wb_points; delete from wb_latest;');
  });

  /** Runs `work` on a WriteBehind in one transaction; answers the statements each flush sent. */
  const run = async (work: (held: WriteBehind) => Promise<void>, mergeInto = ['wb_points', 'wb_latest']) => {
    const sent: string[][] = [];
    await db.transaction(async (tx) => {
      const counting: Queryable = {
        query: (sql, params) => tx.query(sql, params),
        exec: (sql) => {
          sent.push(sql.split(';\n'));
          return tx.exec(sql);
        },
      };
      const held = new WriteBehind(counting, { mergeInto });
      await work(held);
      await held.flush();
    });
    return sent;
  };

  const points = async () =>
    (
      await db.query<{ user_id: string; score: number; on_day: string }>(
        'select user_id, score, on_day::text from wb_points order by user_id, on_day',
      )
    ).rows;

  it('sends the same-shaped inserts of many customers as one multi-row insert, every row as written', async () => {
    const sent = await run(async (held) => {
      for (const user of ['a', 'b', 'c']) {
        await held.query('insert into wb_points (user_id, score, on_day) values ($1, $2, $3::date), ($1, $4, $5::date)', [
          user,
          700,
          '2026-10-01',
          710,
          '2026-11-01',
        ]);
        await held.query(
          'insert into wb_latest (user_id, score) values ($1, $2) on conflict (user_id) do update set score = excluded.score',
          [user, 710],
        );
      }
    });
    expect(sent).toHaveLength(1);
    // Two statements, not six: one per table.
    expect(sent[0]).toHaveLength(2);
    expect(await points()).toEqual(
      ['a', 'b', 'c'].flatMap((user) => [
        { user_id: user, score: 700, on_day: '2026-10-01' },
        { user_id: user, score: 710, on_day: '2026-11-01' },
      ]),
    );
    expect((await db.query('select user_id, score from wb_latest order by user_id')).rows).toEqual([
      { user_id: 'a', score: 710 },
      { user_id: 'b', score: 710 },
      { user_id: 'c', score: 710 },
    ]);
  });

  it('joins columnar inserts of many customers into one insert of their arrays, every value as written', async () => {
    const columnar = 'insert into wb_points (user_id, score, on_day) select * from unnest($1::text[], $2::int[], $3::date[])';
    // Quotes, backslashes, commas and braces: what an array literal must escape inside a quoted SQL literal.
    const awkward = [`o'brien`, 'back\\slash', 'a,b', '{brace}', 'quo"te'];
    const sent = await run(async (held) => {
      await held.query(columnar, [awkward.slice(0, 3), [700, 701, 702], ['2026-10-01', '2026-10-02', '2026-10-03']]);
      await held.query('insert into wb_latest (user_id, score) values ($1, $2)', ['x', 1]);
      await held.query(columnar, [awkward.slice(3), [703, 704], ['2026-10-04', '2026-10-05']]);
    });
    // One insert into each table, not three statements.
    expect(sent).toEqual([[expect.stringContaining('unnest'), expect.stringContaining('wb_latest')]]);
    expect((await db.query('select user_id, score, on_day::text from wb_points order by score')).rows).toEqual(
      awkward.map((user, i) => ({ user_id: user, score: 700 + i, on_day: `2026-10-0${i + 1}` })),
    );
  });

  it('sends a columnar insert as its own statement where it may not merge, with the same rows', async () => {
    const columnar = 'insert into wb_points (user_id, score, on_day) select * from unnest($1::text[], $2::int[], $3::date[])';
    const sent = await run(async (held) => {
      await held.query(columnar, [['a'], [700], ['2026-10-01']]);
      await held.query('update wb_points set score = score + 1', []);
      await held.query(columnar, [['b'], [710], ['2026-10-02']]);
    });
    expect(sent[0]).toHaveLength(3);
    expect(await points()).toEqual([
      { user_id: 'a', score: 701, on_day: '2026-10-01' },
      { user_id: 'b', score: 710, on_day: '2026-10-02' },
    ]);
  });

  it('holds columnar inserts of unequal arrays apart, so no value moves into another insert’s rows', async () => {
    const columnar = 'insert into wb_points (user_id, score, on_day) select * from unnest($1::text[], $2::int[], $3::date[])';
    const sent = await run(async (held) => {
      await held.query(columnar, [
        ['a', 'b'],
        [700, 701],
        ['2026-10-01', '2026-10-02'],
      ]);
      await held.query(columnar, [['c'], [702], ['2026-10-03']]);
      await held.query('insert into wb_latest (user_id, score) select * from unnest($1::text[], $2::int[])', [['z'], [1]]);
    });
    expect(sent[0]).toHaveLength(2);
    // Joined, the second insert's note would land on the first insert's second row (x) and w would have none.
    const unequal = 'insert into wb_latest (user_id, score, note) select * from unnest($1::text[], $2::int[], $3::text[])';
    const sentApart = await run(async (held) => {
      await held.query(unequal, [['y', 'x'], [1, 2], ['y note']]);
      await held.query(unequal, [['w'], [3], ['w note']]);
    });
    expect(sentApart[0]).toHaveLength(2);
    expect((await points()).map((p) => [p.user_id, p.score])).toEqual([
      ['a', 700],
      ['b', 701],
      ['c', 702],
    ]);
    expect((await db.query('select user_id, note from wb_latest order by user_id')).rows).toEqual([
      { user_id: 'w', note: 'w note' },
      { user_id: 'x', note: null },
      { user_id: 'y', note: 'y note' },
      { user_id: 'z', note: null },
    ]);
  });

  it('keeps a write that names the table between two inserts in its place: rows after it run after it', async () => {
    const sent = await run(async (held) => {
      await held.query('insert into wb_latest (user_id, score) values ($1, $2)', ['a', 600]);
      await held.query('update wb_latest set note = $1', ['seen']);
      await held.query('insert into wb_latest (user_id, score) values ($1, $2)', ['b', 650]);
    });
    expect(sent[0]).toHaveLength(3);
    expect((await db.query('select user_id, note from wb_latest order by user_id')).rows).toEqual([
      { user_id: 'a', note: 'seen' },
      { user_id: 'b', note: null },
    ]);
  });

  it('merges nothing into tables it was not told are safe, and nothing of another shape', async () => {
    const sent = await run(
      async (held) => {
        await held.query('insert into wb_points (user_id, score, on_day) values ($1, $2, $3::date)', ['a', 700, '2026-10-01']);
        await held.query('insert into wb_points (user_id, score, on_day) values ($1, $2, $3::date)', ['b', 700, '2026-10-01']);
        await held.query('insert into wb_latest (user_id, score) values ($1, $2)', ['a', 700]);
        await held.query('insert into wb_latest (user_id, score, note) values ($1, $2, $3)', ['b', 700, "it's"]);
      },
      ['wb_latest'],
    );
    expect(sent[0]).toHaveLength(4);
    expect((await points()).map((p) => p.user_id)).toEqual(['a', 'b']);
    expect((await db.query('select note from wb_latest where user_id = $1', ['b'])).rows).toEqual([{ note: "it's" }]);
  });

  it('sends what it holds before a read, so the read sees it', async () => {
    const seen: number[] = [];
    await run(async (held) => {
      await held.query('insert into wb_points (user_id, score, on_day) values ($1, $2, $3::date)', ['a', 700, '2026-10-01']);
      const { rows } = await held.query<{ n: number }>('select count(*)::int as n from wb_points');
      seen.push(rows[0]?.n ?? -1);
    });
    expect(seen).toEqual([1]);
  });

  it('holds a NOTIFY with the writes, ending no merge, heard once they commit', async () => {
    if (!db.listen) throw new Error('every test database listens');
    const heard: string[] = [];
    const stop = await db.listen('wb_channel', (payload) => heard.push(payload));
    const sent = await run(async (held) => {
      const insert = 'insert into wb_points (user_id, score, on_day) values ($1, $2, $3::date)';
      await held.query(insert, ['a', 700, '2026-10-01']);
      await held.query('select pg_notify($1, $2)', ['wb_channel', '["usr_a"]']);
      await held.query(insert, ['b', 700, '2026-10-01']);
    });
    // One flush of two statements: the NOTIFY and one insert holding both customers' rows.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toHaveLength(2);
    await expect.poll(() => heard).toEqual(['["usr_a"]']);
    expect((await points()).map((p) => p.user_id)).toEqual(['a', 'b']);
    await stop();
  });

  it('fails the whole transaction on a merged row’s violation, writing nothing', async () => {
    const failure = await run(async (held) => {
      await held.query('insert into wb_latest (user_id, score) values ($1, $2)', ['a', 700]);
      await held.query('insert into wb_latest (user_id, score) values ($1, $2)', ['a', 710]);
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((await db.query('select count(*)::int as n from wb_latest')).rows).toEqual([{ n: 0 }]);
  });
});
