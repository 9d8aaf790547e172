/**
 * The embedded database under load: PGlite is one session that serves one query at a time, so 64 connections must
 * queue behind it and every one get its answer, never an error. Runs on PostgreSQL too (DATABASE_URL), where the
 * same guarantees come from one pooled connection per transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { ALL_SCOPES, enrollment, startTestApp, type TestApp } from './helpers/harness.ts';
import { openTestDb, usingPostgres } from './helpers/test-db.ts';

const CONCURRENCY = 64;

describe('64 concurrent authenticated requests', () => {
  let app: TestApp;
  let token: string;
  let users: string[];

  beforeAll(async () => {
    app = await startTestApp();
    token = await app.token(await app.createClient(), ALL_SCOPES.join(' '));
    users = [];
    for (let i = 0; i < 4; i++) users.push(await enrolActiveUser(app, token));
  });
  afterAll(() => app.close());

  it('all answer 2xx: user reads, credit-score reads (first ones write the score history), offers and enrolments', async () => {
    const requests = Array.from({ length: CONCURRENCY }, (_, i) => {
      const userId = users[i % users.length] as string;
      // Two enrolments (a transaction with an outbox event each) in the middle of the reads.
      if (i === 17 || i === 41) return ['POST', '/v1/users/enroll', enrollment()] as const;
      const path = [`/v1/users/${userId}`, `/v1/users/${userId}/credit-score`, `/v1/users/${userId}/offers`][i % 3];
      return ['GET', path as string, undefined] as const;
    });
    // Fired together: the first credit-score read of each user seeds its history in a transaction while the
    // other requests' plain queries wait for it.
    const answers = await Promise.all(
      requests.map(async ([method, path, body]) => {
        const res = await app.request(method, path, { token, body });
        return { method, path, status: res.status, error: res.body?.error };
      }),
    );
    const failed = answers.filter((a) => a.status < 200 || a.status > 299);
    expect(failed).toEqual([]);
    expect(answers.filter((a) => a.method === 'POST').map((a) => a.status)).toEqual([201, 201]);
  });
});

describe('the database queue', () => {
  let db: Db;

  beforeAll(async () => {
    db = await openTestDb();
    await db.exec('create table load_probe (id int primary key)');
  });
  afterAll(() => db.close());

  it('lets the event loop turn between queued statements', async () => {
    let finished = 0;
    const issued = Array.from({ length: 50 }, () => db.query('select 1').then(() => finished++));
    // Node accepts connections and reads requests only between turns: a backlog drained in one turn (as promise
    // chains alone would) keeps a busy server deaf, and new connections then wait seconds for a first answer.
    const finishedAtNextTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(finished)));
    await Promise.all(issued);
    expect(finishedAtNextTurn).toBeLessThan(issued.length);
  });

  it.skipIf(usingPostgres)(
    'answers statements in the order they were issued (PGlite; a pool runs them side by side)',
    async () => {
      const finished: number[] = [];
      await Promise.all(Array.from({ length: 50 }, (_, i) => db.query('select $1::int', [i]).then(() => finished.push(i))));
      expect(finished).toEqual(Array.from({ length: 50 }, (_, i) => i));
    },
  );

  it('a query issued while a transaction is open never sees its writes before it commits, nor ones it rolls back', async () => {
    let seen: number | undefined;
    const rolledBack = db.transaction(async (tx) => {
      await tx.query('insert into load_probe (id) values (1)');
      // Outside the transaction, and while it is open: on one session this must wait, not run inside it.
      const outside = db.query<{ n: number }>('select count(*)::int as n from load_probe').then((r) => {
        seen = r.rows[0]?.n;
      });
      // Issued after it: on the one session, run only after the outside query had it not been held back.
      await tx.query('select 1');
      void outside;
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    await expect.poll(() => seen).toBe(0);
  });

  it('a query issued while a transaction is open does not abort it by failing', async () => {
    let outside: Promise<unknown> | undefined;
    const committed = db.transaction(async (tx) => {
      await tx.query('insert into load_probe (id) values (2)');
      outside = db.query('select 1 / 0').catch((error: unknown) => error);
      // Issued after it: on the one session, run only after the failing query had it not been held back.
      await tx.query('insert into load_probe (id) values (3)');
      return 'committed';
    });
    await expect(committed).resolves.toBe('committed');
    await expect(outside).resolves.toBeInstanceOf(Error);
    const { rows } = await db.query<{ id: number }>('select id from load_probe where id in (2, 3) order by id');
    expect(rows.map((r) => r.id)).toEqual([2, 3]);
  });
});
