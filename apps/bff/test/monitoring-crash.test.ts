import { describe, expect, it } from 'vitest';
import { buildContext } from '../src/bootstrap.ts';
import type { Db } from '../src/db/db.ts';
import { createLogger } from '../src/logger.ts';
import { chainSpooledEntries } from '../src/modules/audit/chainer.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { testConfig } from './helpers/harness.ts';
import { type StartedProcess, spawnMain } from './helpers/processes.ts';
import { seedMonitoredUsers } from './helpers/seed-users.ts';
import { type SharedDatabase, sharedDatabase } from './helpers/shared-database.ts';
import { usingPostgres } from './helpers/test-db.ts';
import { waitFor } from './helpers/webhook-receiver.ts';

const USERS = 150;
const LEASE_SECONDS = 3;

/** Ordinary files, story 1001 and story 1003 (a fraud flag at the first pull), in turn. */
const ssnOf = (i: number) => (i % 3 === 0 ? '1001' : i % 3 === 1 ? '1003' : String(3000 + i).padStart(4, '0'));

const workerEnv = (shared: SharedDatabase) => ({
  ...shared.env,
  ROLE: 'worker',
  LOG_LEVEL: 'debug',
  // Small batches, few at a time: the kill lands with users claimed and not yet committed.
  MONITORING_BATCH_SIZE: '8',
  MONITORING_CONCURRENCY: '2',
  MONITORING_LEASE_SECONDS: String(LEASE_SECONDS),
  MONITORING_POLL_INTERVAL_MS: '100',
  PURGE_INTERVAL_SECONDS: '3600',
});

const seed = async (shared: SharedDatabase): Promise<void> => {
  const db = await shared.open();
  try {
    const ctx = await buildContext({ config: testConfig(), db, logger: createLogger('silent') });
    const { client } = await createClient(db, ctx.clock, 'sandbox', { name: 'Crash bank', contactEmail: 'ops@bank.test' });
    await seedMonitoredUsers(ctx, { clientId: client.id, count: USERS, dueAt: new Date(), ssnOf });
  } finally {
    await db.close();
  }
};

const countWhere = async (db: Db, sql: string) => Number((await db.query<{ n: number }>(sql)).rows[0]?.n);

/** Each user refreshed exactly once for period 0, with nothing duplicated and nothing lost. */
const expectEachPeriodOnce = async (db: Db) => {
  expect(await countWhere(db, 'select count(*)::int as n from users where monitoring_period = 1')).toBe(USERS);
  expect(await countWhere(db, 'select count(*)::int as n from credit_snapshots')).toBe(USERS);
  // The first pull seeds the 24 monthly scores and announces them once.
  const history = await db.query<{ n: number }>('select count(*)::int as n from score_history group by user_id');
  expect(history.rows).toHaveLength(USERS);
  expect(new Set(history.rows.map((r) => r.n))).toEqual(new Set([24]));
  const updates = await db.query<{ n: number }>(
    `select count(*)::int as n from outbox_events where type = 'score.updated' group by data->>'userId'`,
  );
  expect(updates.rows).toHaveLength(USERS);
  expect(new Set(updates.rows.map((r) => r.n))).toEqual(new Set([1]));
  // One alert.created per alert, one alert per key: no subject alerted twice.
  const alerts = await countWhere(db, 'select count(*)::int as n from alerts');
  expect(await countWhere(db, `select count(*)::int as n from outbox_events where type = 'alert.created'`)).toBe(alerts);
  expect(await countWhere(db, 'select count(*)::int as n from monitoring_alert_keys')).toBe(alerts);
  // Each user's file was recorded once, and every pull of it, first or repeated after the kill, was the same pull to the
  // bureau (one pullId: billed once).
  await chainSpooledEntries({ db });
  const pulls = await db.query<{ pulls: number; pull_ids: number; recorded: number }>(
    `select count(*) filter (where type = 'bureau.pull')::int as pulls,
       count(distinct subject->>'pullId') filter (where type = 'bureau.pull')::int as pull_ids,
       count(*) filter (where type = 'credit_file.recorded')::int as recorded
     from audit_events where type in ('bureau.pull', 'credit_file.recorded') group by user_id`,
  );
  expect(pulls.rows).toHaveLength(USERS);
  for (const row of pulls.rows) expect({ pullIds: row.pull_ids, recorded: row.recorded }).toEqual({ pullIds: 1, recorded: 1 });
  // Every story-1003 file showed its fraud flag.
  expect(
    await countWhere(db, `select count(distinct user_id)::int as n from alerts where type = 'fraud_alert'`),
  ).toBeGreaterThanOrEqual(USERS / 3);
};

const refreshedBy = (worker: StartedProcess) =>
  worker.logLines('monitoring batch').reduce((sum, line) => sum + Number(line.refreshed ?? 0), 0);

describe('monitoring survives a worker killed mid-cycle', { timeout: 180_000 }, () => {
  it('refreshes every user exactly once for the period after a SIGKILL', async () => {
    const shared = await sharedDatabase('moncrash');
    const started: StartedProcess[] = [];
    try {
      await seed(shared);
      const env = workerEnv(shared);
      // PostgreSQL: two workers share the cycle and one dies. PGlite (one process per database): the worker dies and
      // the restarted one finishes.
      const doomed = spawnMain(env);
      const survivor = usingPostgres ? spawnMain(env) : undefined;
      started.push(doomed, ...(survivor ? [survivor] : []));
      await waitFor(() => expect(doomed.logLines('monitoring batch').length).toBeGreaterThanOrEqual(3), 60_000);
      await doomed.kill('SIGKILL');
      const doneByDoomed = refreshedBy(doomed);
      expect(doneByDoomed).toBeLessThan(USERS);

      // What the finisher may have left to do: every user the dead worker did not commit. By its log lines on PostgreSQL;
      // on PGlite from the database itself, which died with the worker (an embedded database's last commits can die
      // with its process, and are then redone).
      let leftByDoomed = USERS - doneByDoomed;
      let finisher: StartedProcess;
      if (survivor) {
        finisher = survivor;
        // PostgreSQL can be read while the survivor works: done when every user has moved past the period (the dead
        // worker's claimed users come back to it once their leases run out).
        const watcher = await shared.open();
        try {
          await waitFor(async () => {
            expect(await countWhere(watcher, 'select count(*)::int as n from users where monitoring_period = 1')).toBe(USERS);
          }, 120_000);
        } finally {
          await watcher.close();
        }
      } else {
        // PGlite is one process's: restart once the dead worker's leases have run out, so the restarted worker finds
        // every unfinished user due at once, and is done when it goes idle after its one busy stretch. The worker runs
        // on real time, which the test cannot move: the leases (a claimed user's next attempt) are ended in the
        // database instead of waited out.
        const afterKill = await shared.open();
        try {
          leftByDoomed = await countWhere(afterKill, 'select count(*)::int as n from users where monitoring_period = 0');
          await afterKill.query(
            'update users set monitoring_next_attempt_at = now() where monitoring_period = 0 and monitoring_next_attempt_at > now()',
          );
        } finally {
          await afterKill.close();
        }
        finisher = spawnMain(env);
        started.push(finisher);
        await waitFor(() => expect(finisher.logLines('monitoring idle').length).toBeGreaterThan(0), 120_000);
      }
      expect(await finisher.kill('SIGTERM')).toBe(0);
      // The finisher did the rest (batches the dead worker had committed but not yet logged are skipped, not redone).
      expect(refreshedBy(finisher)).toBeGreaterThan(0);
      expect(refreshedBy(finisher)).toBeLessThanOrEqual(leftByDoomed);
      const db = await shared.open();
      try {
        await expectEachPeriodOnce(db);
      } finally {
        await db.close();
      }
    } finally {
      // A failed assertion must not leave workers running on the shared database.
      await Promise.all(started.map((p) => p.kill('SIGKILL')));
      await shared.drop();
    }
  });
});
