import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../src/bootstrap.ts';
import type { BureauProvider } from '../src/bureau/provider.ts';
import type { AppContext } from '../src/context.ts';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createLogger } from '../src/logger.ts';
import { runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, testConfig } from './helpers/harness.ts';
import { usingPostgres } from './helpers/test-db.ts';

const DAY = 86_400_000;
const CLOCKS = 3;
const USERS_PER_CLOCK = 4;

// PGlite is one process's database: two instances' workers only mean something on PostgreSQL.
describe.skipIf(!usingPostgres)('two instances advancing clocks on one PostgreSQL', { timeout: 180_000 }, () => {
  let app: TestApp;
  let second: { ctx: AppContext; db: Db };

  beforeAll(async () => {
    const config = { MONITORING_LEASE_SECONDS: '1', MONITORING_CONCURRENCY: '4' };
    app = await startTestApp({ config });
    const schema = (app.db as Db & { schema: string }).schema;
    const db = await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema, max: 5 });
    second = {
      db,
      ctx: await buildContext({ config: testConfig(config), db, logger: createLogger('silent'), clock: app.clock }),
    };
  });
  /**
   * Makes every bureau call of `ctx` take a few milliseconds, as a real bureau's do: a period is then still in flight
   * when the other worker takes its clock over, so the race this test is about happens on any machine, however fast.
   */
  const slowBureau = (ctx: AppContext) => {
    const bureau = ctx.bureau;
    if (!bureau) throw new Error('the sandbox instance has a bureau');
    const slowed: BureauProvider = new Proxy(bureau, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await new Promise((resolve) => setTimeout(resolve, 15));
          return value.apply(target, args);
        };
      },
    });
    (ctx as { bureau: AppContext['bureau'] }).bureau = slowed;
  };

  afterAll(async () => {
    await second.db.close();
    await app.close();
  });

  const count = async (sql: string, params: unknown[]) => Number((await app.db.query<{ n: number }>(sql, params)).rows[0]?.n);

  it('runs each period of each user once, even when a worker takes over an advance another is still running', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const clocks: { clockId: string; users: string[] }[] = [];
    for (let c = 0; c < CLOCKS; c++) {
      const users = [];
      for (let u = 0; u < USERS_PER_CLOCK; u++) users.push(await enrolActiveUser(app, token, { ssn: u % 2 ? '1002' : '1001' }));
      const created = await app.request('POST', '/v1/sandbox/clocks', { token, body: {} });
      clocks.push({ clockId: created.body.data.clockId, users });
    }
    await runMonitoringUntilIdle(app.ctx);
    const historyOf = (userId: string) => count('select count(*)::int as n from score_history where user_id = $1', [userId]);
    const before = new Map<string, number>();
    for (const { clockId, users } of clocks) {
      for (const userId of users) before.set(userId, await historyOf(userId));
      expect((await app.request('POST', `/v1/sandbox/clocks/${clockId}/users`, { token, body: { userIds: users } })).status).toBe(
        200,
      );
      const frozen = Date.parse((await app.request('GET', `/v1/sandbox/clocks/${clockId}`, { token })).body.data.frozenTime);
      const advanced = await app.request('POST', `/v1/sandbox/clocks/${clockId}/advance`, {
        token,
        body: { frozenTime: new Date(frozen + 365 * DAY).toISOString() },
      });
      expect(advanced.status).toBe(202);
    }

    slowBureau(app.ctx);
    slowBureau(second.ctx);
    // Both instances' workers run at once, while every lease is made to run out again and again: the other worker
    // takes the clock over mid-advance, so both run its users' periods at the same time.
    let running = true;
    const thief = (async () => {
      while (running) {
        await app.db.query(`update sandbox_clocks set lease_until = now() - interval '1 hour' where status = 'advancing'`);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    })();
    let rounds = 0;
    let raced = 0;
    const advancing = () => count(`select count(*)::int as n from sandbox_clocks where status = 'advancing'`, []);
    /** One instance's worker: polls for claimable advances until none is left. */
    const worker = async (ctx: AppContext) => {
      while ((await advancing()) > 0) {
        const report = await runClockAdvancesUntilIdle(ctx);
        // A period pulled by both workers commits once; the loser finds it done under the row lock and skips it.
        raced += report.outcomes.skipped;
        rounds += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    try {
      await Promise.all([worker(app.ctx), worker(second.ctx)]);
    } finally {
      running = false;
      await thief;
    }
    expect(rounds).toBeGreaterThanOrEqual(1);
    expect(raced, 'the workers never ran one period at the same time').toBeGreaterThan(0);

    for (const { clockId, users } of clocks) {
      expect(
        await count(`select count(*)::int as n from outbox_events where type = 'sandbox.clock.ready' and data->>'clockId' = $1`, [
          clockId,
        ]),
      ).toBe(1);
      for (const [i, userId] of users.entries()) {
        // Twelve periods, and for story 1001 a pull on each day its file changed between them (a trigger, at the day's
        // start); the quiet 1002 never changes.
        const triggered = await count(
          `select count(*)::int as n from outbox_events where type = 'score.updated' and data->>'userId' = $1
             and created_at = date_trunc('day', created_at)`,
          [userId],
        );
        if (i % 2) expect(triggered).toBe(0);
        else expect(triggered).toBeGreaterThan(0);
        expect(await historyOf(userId)).toBe((before.get(userId) ?? 0) + 12 + triggered);
        expect(
          await count(`select count(*)::int as n from outbox_events where type = 'score.updated' and data->>'userId' = $1`, [
            userId,
          ]),
        ).toBe(13 + triggered);
        const alerts = await count('select count(*)::int as n from alerts where user_id = $1', [userId]);
        const alertEvents = await count(
          `select count(*)::int as n from outbox_events where type = 'alert.created' and data->>'userId' = $1`,
          [userId],
        );
        expect(alertEvents).toBe(alerts);
        expect(await count('select count(*)::int as n from users where id = $1 and monitoring_period = 13', [userId])).toBe(1);
      }
    }
  });
});
