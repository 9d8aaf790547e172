import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BureauUnavailableError } from '../src/bureau/http/errors.ts';
import type { BureauProvider } from '../src/bureau/provider.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const HOUR = 3_600_000;

let app: TestApp;
let client: TestClient;
/** An access token valid at the test clock's now (the clock jumps months; a token lives an hour). */
const tok = () => app.currentToken(client);
beforeAll(async () => {
  app = await startTestApp();
  app.clock.set('2026-11-23T10:00:00.000Z');
  client = await app.createClient();
});
afterAll(() => app.close());

const refresh = async (userId: string, as?: string, headers: Record<string, string> = {}) =>
  app.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token: as ?? (await tok()), headers });
const count = async (sql: string, params: unknown[], on: TestApp = app) =>
  Number((await on.db.query<{ n: number }>(sql, params)).rows[0]?.n);

describe('POST /v1/users/{userId}/credit-score/refresh', () => {
  it('pulls now, answers the new score with the previous one, and allows the next one a day later', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1001' });
    const before = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() });
    app.clock.advance(40 * 24 * HOUR);
    const res = await refresh(userId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      previousScore: before.body.data.score,
      scoreDate: '2027-01-02',
      refreshAvailableAt: new Date(app.clock.now().getTime() + 24 * HOUR).toISOString(),
    });
    expect(res.body.data.factors).toHaveLength(5);
    const now = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() });
    expect(now.body.data.score).toBe(res.body.data.score);
    const user = await app.request('GET', `/v1/users/${userId}`, { token: await tok() });
    expect(user.body.data.monitoring).toMatchObject({
      lastRefreshedAt: app.clock.now().toISOString(),
      refreshAvailableAt: res.body.data.refreshAvailableAt,
    });
    expect(await count(`select count(*)::int as n from score_history where user_id = $1 and source = 'refresh'`, [userId])).toBe(
      1,
    );

    app.clock.advance(3 * HOUR);
    const again = await refresh(userId);
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(again.headers.get('retry-after')).toBe(String(21 * 3600));
    expect(again.body.error.retryAfter).toBe(21 * 3600);

    app.clock.advance(21 * HOUR);
    expect((await refresh(userId)).status).toBe(200);
  });

  it('never pulls twice for concurrent calls', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const points = () => count('select count(*)::int as n from score_history where user_id = $1', [userId]);
    const announced = () =>
      count(`select count(*)::int as n from outbox_events where type = 'score.updated' and data->>'userId' = $1`, [userId]);
    // Verification's pull seeded the history (24 monthly scores) and announced it once.
    expect([await points(), await announced()]).toEqual([24, 1]);
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(userId)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429, 429, 429]);
    // The one refresh that ran pulled once: one history point, one score.updated.
    expect([await points(), await announced()]).toEqual([25, 2]);
  });

  it('replays the first answer for the same Idempotency-Key instead of refusing it', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const first = await refresh(userId, undefined, { 'idempotency-key': `refresh-${userId}` });
    expect(first.status).toBe(200);
    const replay = await refresh(userId, undefined, { 'idempotency-key': `refresh-${userId}` });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(first.body.data);
    expect((await refresh(userId, undefined, { 'idempotency-key': `other-${userId}` })).status).toBe(429);
  });

  it('lets a user token refresh its own user only, and refuses unverified users and frozen files', async () => {
    const external = `own-${Date.now()}`;
    const own = await enrolActiveUser(app, await tok(), { externalUserId: external });
    const other = await enrolActiveUser(app, await tok());
    const userToken = await app.userToken(await tok(), external);
    expect((await refresh(other, userToken)).status).toBe(404);
    expect((await refresh(own, userToken)).status).toBe(200);

    const readOnly = await app.token(client, 'read');
    expect((await refresh(other, readOnly)).body.error.code).toBe('AUTHORIZATION_ERROR');

    const pending = await enrolUser(app, await tok());
    const notVerified = await refresh(pending);
    expect(notVerified.status).toBe(403);
    expect(notVerified.body.error.code).toBe('USER_NOT_ENROLLED');

    const frozen = await enrolActiveUser(app, await tok(), { ssn: '0000' });
    const refused = await refresh(frozen);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('CREDIT_FROZEN');
    const user = await app.request('GET', `/v1/users/${frozen}`, { token: await tok() });
    expect(user.body.data.monitoring).toMatchObject({
      status: 'paused',
      pausedReason: 'credit_frozen',
      refreshAvailableAt: null,
    });
    // A frozen answer is not the day's refresh: the customer can try again once the freeze is lifted.
    expect((await refresh(frozen)).body.error.code).toBe('CREDIT_FROZEN');

    const otherClient = await app.createClient();
    const otherToken = await app.token(otherClient);
    expect((await refresh(own, otherToken)).status).toBe(404);
  });
});

describe('refresh now while the pull is under way, and when it fails', () => {
  /**
   * The sandbox bureau, except that a held credit pull waits until it is let go, then fails as a bureau outage (or,
   * `succeed`, answers the file). Every credit pull's idempotency key is kept in `pullIds`.
   */
  const inner = new SandboxBureau();
  let hold: { entered: () => void; release: Promise<void>; succeed?: boolean } | undefined;
  const pullIds: (string | undefined)[] = [];
  const bureau: BureauProvider = {
    name: inner.name,
    pullIdentityFile: (...args) => inner.pullIdentityFile(...args),
    simulateScore: (...args) => inner.simulateScore(...args),
    pullCreditFile: async (subject, asOf, options) => {
      pullIds.push(options?.pullId);
      const held = hold;
      if (!held) return inner.pullCreditFile(subject, asOf);
      hold = undefined;
      held.entered();
      await held.release;
      if (held.succeed) return inner.pullCreditFile(subject, asOf);
      throw new BureauUnavailableError('timeout');
    },
  };
  /** Holds the next credit pull: resolves once it has reached the bureau; `letGo()` ends it. */
  const holdNextPull = (succeed = false) => {
    let entered!: () => void;
    const reached = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let letGo!: () => void;
    hold = { entered, release: new Promise<void>((resolve) => (letGo = resolve)), succeed };
    return { reached, letGo };
  };
  let own: TestApp;
  beforeAll(async () => {
    own = await startTestApp({ bureau });
  });
  afterAll(() => own.close());

  it('shows the day’s slot as taken while the pull runs, and free again once a failed pull gives it back', async () => {
    const token = await own.token(await own.createClient());
    const userId = await enrolActiveUser(own, token);
    const monitoring = async () =>
      (await own.request('GET', `/v1/users/${userId}`, { token })).body.data.monitoring.refreshAvailableAt;
    // Read, so the user row is in the read cache.
    expect(await monitoring()).toBeNull();

    let entered!: () => void;
    const pulling = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let letGo!: () => void;
    hold = { entered, release: new Promise<void>((resolve) => (letGo = resolve)) };
    const refreshing = own.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token });
    await pulling;
    expect(await monitoring()).toBe(new Date(own.clock.now().getTime() + 24 * HOUR).toISOString());

    letGo();
    const failed = await refreshing;
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await monitoring()).toBeNull();
  });

  it('frees the slot of a pull whose process stopped mid-pull once its lease has passed, and only then', async () => {
    const token = await own.token(await own.createClient());
    const userId = await enrolActiveUser(own, token);
    const refreshOwn = () => own.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token });
    const monitoring = async () =>
      (await own.request('GET', `/v1/users/${userId}`, { token })).body.data.monitoring.refreshAvailableAt;
    const pulls = () =>
      count(`select count(*)::int as n from score_history where user_id = $1 and source = 'refresh'`, [userId], own);

    // A pull that does not come back: to the database, the same as a process killed while its bureau call ran.
    const stranded = holdNextPull();
    const first = refreshOwn();
    try {
      await stranded.reached;
      const takenAt = own.clock.now();
      const lease = own.ctx.config.MONITORING_LEASE_SECONDS * 1000;

      // Within the lease the pull may still answer: the slot stays taken, and the 429 says when that is known.
      own.clock.advance(lease - 5000);
      const early = await refreshOwn();
      expect(early.status).toBe(429);
      expect(early.headers.get('retry-after')).toBe('5');
      expect(early.body.error.retryAfter).toBe(5);
      expect(await monitoring()).toBe(new Date(takenAt.getTime() + 24 * HOUR).toISOString());

      // Past it, the slot is free, and the next call pulls, as the stranded pull asked (billed once if it got through).
      own.clock.advance(6000);
      expect(await monitoring()).toBeNull();
      const retried = await refreshOwn();
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body.data.refreshAvailableAt).toBe(new Date(own.clock.now().getTime() + 24 * HOUR).toISOString());
      expect(await pulls()).toBe(1);
      expect(pullIds.slice(-2)).toEqual([
        `${userId}:refresh:${takenAt.toISOString()}`,
        `${userId}:refresh:${takenAt.toISOString()}`,
      ]);
    } finally {
      stranded.letGo();
    }
    // The stranded pull failing late gives nothing back: the slot is the new pull's now.
    expect((await first).status).toBe(503);
    expect(await monitoring()).toBe(new Date(own.clock.now().getTime() + 24 * HOUR).toISOString());
    expect((await refreshOwn()).status).toBe(429);
  });

  it('keeps the slot of a pull that answers after its lease when the call that took over failed', async () => {
    const token = await own.token(await own.createClient());
    const userId = await enrolActiveUser(own, token);
    const refreshOwn = () => own.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token });
    const monitoring = async () =>
      (await own.request('GET', `/v1/users/${userId}`, { token })).body.data.monitoring.refreshAvailableAt;

    const slow = holdNextPull(true);
    const first = refreshOwn();
    let answered = false;
    try {
      await slow.reached;
      const takenAt = own.clock.now();
      own.clock.advance(own.ctx.config.MONITORING_LEASE_SECONDS * 1000 + 1000);
      // The call that takes over fails (the bureau is down): the slot goes back as it was, free.
      const takeover = holdNextPull();
      const second = refreshOwn();
      await takeover.reached;
      takeover.letGo();
      expect((await second).status).toBe(503);
      expect(await monitoring()).toBeNull();

      // The slow pull answers after all: it was billed and is recorded, and the day's slot is its own.
      slow.letGo();
      const late = await first;
      answered = true;
      expect(late.status, JSON.stringify(late.body)).toBe(200);
      expect(await monitoring()).toBe(new Date(takenAt.getTime() + 24 * HOUR).toISOString());
      expect((await refreshOwn()).status).toBe(429);
    } finally {
      if (!answered) slow.letGo();
    }
  });
});
