import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpBureau, HttpBureauOptions } from '../src/bureau/http/adapter.ts';
import { BureauRateLimitedError, BureauUnavailableError } from '../src/bureau/http/errors.ts';
import type { BureauCallOptions, CreditSubject } from '../src/bureau/provider.ts';
import { loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { startTestBureau, type TestBureau, testBureauAdapter } from './helpers/test-bureau.ts';

// Values that cannot appear in a log line by chance: their absence from every line means something.
const subject: CreditSubject = {
  userId: 'usr_resilience0000000000',
  firstName: 'Oriabel',
  lastName: 'Thistlewaite',
  ssnLast4: '7316',
  dateOfBirth: '1983-04-19',
  address: { street: '12 Quenderby Row', city: 'Boise', state: 'ID', zipCode: '83702' },
};
const PERSONAL_VALUES = ['Oriabel', 'Thistlewaite', '7316', '1983-04-19', 'Quenderby'];

let bureau: TestBureau;
/** The adapters' clock: every wait they make (backoff, open circuit, timeout, the per-second cap) ends when it moves. */
let clock: ManualClock;
const adapters: HttpBureau[] = [];
const logs: string[] = [];

/** Polls `check` every few milliseconds until it holds: the adapter reaches its waits through real network I/O. */
const until = (check: () => boolean) => expect.poll(check, { interval: 2, timeout: 5_000 }).toBe(true);

const adapter = (options: Partial<HttpBureauOptions> = {}) => {
  const created = testBureauAdapter(bureau, logs, clock, options);
  adapters.push(created);
  return created;
};

/** The reason a pull failed, or 'ok'. */
const outcome = async (pull: Promise<unknown>): Promise<string> => {
  try {
    await pull;
    return 'ok';
  } catch (error) {
    if (error instanceof BureauUnavailableError) return error.reason;
    throw error;
  }
};

beforeAll(async () => {
  bureau = await startTestBureau();
});
beforeEach(() => {
  clock = new ManualClock();
});
afterEach(async () => {
  bureau.behave({ kind: 'sandbox' });
  bureau.calls.length = 0;
  logs.length = 0;
  await Promise.all(adapters.splice(0).map((created) => created.close()));
});
afterAll(() => bureau.close());

describe('the HTTP bureau adapter when the bureau misbehaves', () => {
  it('retries a 5xx the configured number of times after a backoff on its clock, then answers 503 bureau_error; a healthy bureau answers at once', async () => {
    // A timeout far beyond any backoff (at most 5 s): the one short wait pending is the backoff.
    const client = adapter({ retries: 2, timeoutMs: 60_000 });
    bureau.behave({ kind: 'fail' });
    const failing = client.pullCreditFile(subject, new Date()).catch((error: unknown) => error);
    for (let retry = 1; retry <= 2; retry += 1) {
      await until(() => bureau.calls.length === retry && (clock.pendingWaits()[0] ?? Infinity) <= 5_000);
      clock.advance(clock.pendingWaits()[0] ?? 0);
    }
    const failure = await failing;
    expect(failure).toBeInstanceOf(BureauUnavailableError);
    expect((failure as BureauUnavailableError).status).toBe(503);
    expect((failure as BureauUnavailableError).reason).toBe('bureau_error');
    expect(bureau.calls).toHaveLength(3);

    bureau.behave({ kind: 'sandbox' });
    bureau.calls.length = 0;
    const answer = await client.pullCreditFile(subject, new Date());
    expect(answer.status).toBe('ok');
    expect(bureau.calls).toHaveLength(1);
  });

  it('opens the circuit after consecutive failures (calls then fail fast, reaching no bureau) and closes once the bureau recovers', async () => {
    const client = adapter({ retries: 0, breakerThreshold: 3, breakerHalfOpenMs: 30_000 });
    bureau.behave({ kind: 'fail' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('bureau_error');
    }
    expect(client.circuitState).toBe('open');
    const callsWhenOpened = bureau.calls.length;
    const failFast = await client.pullCreditFile(subject, new Date()).catch((error: unknown) => error);
    expect((failFast as BureauUnavailableError).reason).toBe('circuit_open');
    // A caller is told when to come back.
    expect((failFast as BureauUnavailableError).hints?.retryAfterSeconds).toBe(30);
    expect(bureau.calls.length).toBe(callsWhenOpened);

    bureau.behave({ kind: 'sandbox' });
    // Open for 30 s of the adapter's clock, however long the test takes.
    clock.advance(29_999);
    expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('circuit_open');
    expect(bureau.calls.length).toBe(callsWhenOpened);
    // Half-open: the next call is the test call, succeeds, and closes the circuit.
    clock.advance(1);
    expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('ok');
    expect(client.circuitState).toBe('closed');
    expect(bureau.calls.length).toBe(callsWhenOpened + 1);
  });

  it('opens the circuit again for another wait when its test call fails', async () => {
    const client = adapter({ retries: 0, breakerThreshold: 1, breakerHalfOpenMs: 30_000 });
    bureau.behave({ kind: 'fail' });
    expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('bureau_error');
    clock.advance(30_000);
    expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('bureau_error');
    expect(client.circuitState).toBe('open');
    const calls = bureau.calls.length;
    clock.advance(29_999);
    expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('circuit_open');
    expect(bureau.calls.length).toBe(calls);
  });

  it('refuses a malformed or partial file without retrying it, and logs what was wrong without any personal data', async () => {
    const client = adapter({ retries: 2 });
    bureau.behave({ kind: 'raw', body: () => '{"status":"ok","file":{"bureau":"transunion","monthlyScores":[{"date":"x"}]}}' });
    expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('invalid_answer');
    expect(bureau.calls).toHaveLength(1);
    bureau.behave({ kind: 'raw', body: () => '<html>maintenance</html>' });
    expect(await outcome(client.pullIdentityFile(subject, new Date()))).toBe('invalid_answer');

    const failures = logs.map((line) => JSON.parse(line)).filter((line) => line.msg === 'bureau call failed');
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ reason: 'invalid_answer', userId: subject.userId, operation: 'credit_file' });
    expect(failures[0].issues.length).toBeGreaterThan(0);
    expect(failures[1]).toMatchObject({ reason: 'invalid_answer', notJson: true, operation: 'identity_file' });
    for (const value of PERSONAL_VALUES) expect(logs.join('\n')).not.toContain(value);
  });

  it('gives up on a bureau that never answers once the timeout has passed on its clock, as 503 timeout', async () => {
    const client = adapter({ retries: 0, timeoutMs: 60_000 });
    bureau.behave({ kind: 'hang' });
    let settled = false;
    const pull = outcome(client.pullCreditFile(subject, new Date())).finally(() => (settled = true));
    await until(() => bureau.calls.length === 1);
    clock.advance(59_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    expect(await pull).toBe('timeout');
  });
});

describe('BUREAU_MAX_PER_SECOND', () => {
  /** The clock's next second, plus the most a waiter's start is spread after it. */
  const NEXT_SECOND_MS = 1_000 + 40;

  /** Starts `pulls` and counts those that have finished. */
  const started = (pulls: Promise<string>[]) => {
    const done: string[] = [];
    for (const pull of pulls) void pull.then((result) => done.push(result));
    return done;
  };

  it('holds calls over the cap until the next second instead of failing them', async () => {
    const client = adapter({ maxPerSecond: 4, timeoutMs: 5_000 });
    const done = started(Array.from({ length: 10 }, () => outcome(client.pullCreditFile(subject, new Date()))));
    // 4 a second: 4 calls now and 6 waiting for the clock, 4 more in the next second, the last 2 in the one after.
    for (const [answered, waiting] of [
      [4, 6],
      [8, 2],
    ] as const) {
      await until(() => done.length === answered && clock.pendingWaits().length === waiting);
      expect(bureau.calls).toHaveLength(answered);
      clock.advance(NEXT_SECOND_MS);
    }
    await until(() => done.length === 10);
    expect(done.every((result) => result === 'ok')).toBe(true);
    expect(bureau.calls).toHaveLength(10);
  });

  it.skipIf(!process.env.REDIS_URL)('is one budget for every process sharing Redis', async () => {
    // The second auto-pipelines as a worker's connection does: its calls take their slots in shared writes.
    const connections = [
      new Redis(process.env.REDIS_URL ?? ''),
      new Redis(process.env.REDIS_URL ?? '', { enableAutoPipelining: true }),
    ];
    try {
      // Until a connection is ready each process caps on its own (the insurance limiter): wait, as a worker would have.
      await Promise.all(connections.map((redis) => redis.ping()));
      const [first, second] = connections.map((redis) => adapter({ maxPerSecond: 3, timeoutMs: 5_000, redis })) as [
        ReturnType<typeof adapter>,
        ReturnType<typeof adapter>,
      ];
      const done = started(
        Array.from({ length: 6 }, (_, index) => outcome((index % 2 ? first : second).pullCreditFile(subject, new Date()))),
      );
      // Two separate budgets would start all 6 at once; one shared budget of 3 holds 3 for the next second.
      await until(() => done.length === 3 && clock.pendingWaits().length === 3);
      expect(bureau.calls).toHaveLength(3);
      clock.advance(NEXT_SECOND_MS);
      await until(() => done.length === 6);
      expect(done.every((result) => result === 'ok')).toBe(true);
    } finally {
      for (const redis of connections) redis.disconnect();
    }
  });
});

describe('fair shares of BUREAU_MAX_PER_SECOND', () => {
  const NEXT_SECOND_MS = 1_000 + 40;

  /** How a call ended: ok, rate_limited (429, the client over its share) or the 503's reason. */
  const ending = async (pull: Promise<unknown>): Promise<string> => {
    try {
      await pull;
      return 'ok';
    } catch (error) {
      if (error instanceof BureauRateLimitedError) return 'rate_limited';
      if (error instanceof BureauUnavailableError) return error.reason;
      throw error;
    }
  };

  /** Starts `count` pulls for `call` and collects how each ended, as they end. */
  const pulls = (client: HttpBureau, count: number, call: BureauCallOptions) => {
    const done: string[] = [];
    for (let i = 0; i < count; i++) void ending(client.pullCreditFile(subject, new Date(), call)).then((r) => done.push(r));
    return done;
  };

  it('reads BUREAU_CLIENT_WEIGHTS as client=weight pairs and refuses anything else at start-up', () => {
    const weights = loadConfig({ BUREAU_CLIENT_WEIGHTS: ' cli_live_x=2, cli_live_y = 0.5,' }).BUREAU_CLIENT_WEIGHTS;
    expect([...weights]).toEqual([
      ['cli_live_x', 2],
      ['cli_live_y', 0.5],
    ]);
    expect(loadConfig({}).BUREAU_CLIENT_WEIGHTS.size).toBe(0);
    for (const wrong of ['cli_x', 'cli_x=0', 'cli_x=-1', 'usr_x=2', 'cli_x=2;cli_y=1']) {
      expect(() => loadConfig({ BUREAU_CLIENT_WEIGHTS: wrong }), wrong).toThrow(/BUREAU_CLIENT_WEIGHTS/);
    }
    expect(() => loadConfig({ BUREAU_MONITORING_SHARE: '1' })).toThrow(/BUREAU_MONITORING_SHARE/);
  });

  it('splits the cap between the clients calling, by weight, whatever order their calls arrive in', async () => {
    const client = adapter({ maxPerSecond: 6, timeoutMs: 5_000, clientWeights: new Map([['cli_big', 2]]) });
    const big = pulls(client, 12, { clientId: 'cli_big' });
    const small = pulls(client, 6, { clientId: 'cli_small' });
    // Weights 2 and 1 of 6 a second: 4 and 2 each second, the big client's burst never taking the small one's slots.
    for (const [b, s] of [
      [4, 2],
      [8, 4],
    ] as const) {
      await until(() => big.length === b && small.length === s && clock.pendingWaits().length === 18 - b - s);
      expect(bureau.calls).toHaveLength(b + s);
      clock.advance(NEXT_SECOND_MS);
    }
    await until(() => big.length === 12 && small.length === 6);
    expect([...big, ...small].every((r) => r === 'ok')).toBe(true);
  });

  it('gives a client that stopped calling its share back to the others after a few seconds', async () => {
    const client = adapter({ maxPerSecond: 4, timeoutMs: 5_000 });
    expect(await ending(client.pullCreditFile(subject, new Date(), { clientId: 'cli_gone' }))).toBe('ok');
    const during = pulls(client, 4, { clientId: 'cli_busy' });
    // cli_gone called this second: each has half of the cap.
    await until(() => during.length === 2 && clock.pendingWaits().length === 2);
    clock.advance(4_000);
    await until(() => during.length === 4);
    clock.advance(1_000);
    const after = pulls(client, 4, { clientId: 'cli_busy' });
    // Over three seconds without a call: cli_gone no longer counts, and cli_busy has the whole cap in a second.
    await until(() => after.length === 4);
    expect([...during, ...after].every((r) => r === 'ok')).toBe(true);
  });

  it('keeps monitoring its reserved share under an interactive flood, and interactive calls theirs under a monitoring backlog', async () => {
    // A deadline long enough for every call to wait its turn.
    const client = adapter({ maxPerSecond: 10, timeoutMs: 30_000, monitoringShare: 0.3 });
    const interactive = pulls(client, 20, { clientId: 'cli_a', callClass: 'interactive' });
    const monitoring = pulls(client, 30, { clientId: 'cli_a', callClass: 'monitoring' });
    // 7 and 3 a second while both classes call, even from one client.
    await until(() => interactive.length === 7 && monitoring.length === 3);
    clock.advance(NEXT_SECOND_MS);
    await until(() => interactive.length === 14 && monitoring.length === 6);
    expect(bureau.calls).toHaveLength(20);
  });

  it('lets a monitoring pull wait four attempt timeouts for its slot, where a person’s call waits one', async () => {
    const client = adapter({ maxPerSecond: 1, timeoutMs: 1_000 });
    const person = pulls(client, 2, { clientId: 'cli_m', callClass: 'interactive' });
    await until(() => person.length === 2);
    expect(person.sort()).toEqual(['ok', 'rate_limited']);
    clock.advance(4_000);
    const scheduled = pulls(client, 4, { clientId: 'cli_m', callClass: 'monitoring' });
    for (let second = 1; second <= 4; second++) {
      await until(() => scheduled.length === second);
      clock.advance(NEXT_SECOND_MS);
    }
    expect(scheduled).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('refuses a client over its share with 429 (at once when its waiting calls already fill the seconds left), never 503', async () => {
    const client = adapter({ maxPerSecond: 2, timeoutMs: 2_000 });
    const done = pulls(client, 20, { clientId: 'cli_flood' });
    // 2 now, 2 waiting for the only second before the deadline, and 16 that second could not serve refused at once.
    await until(() => done.length === 18 && clock.pendingWaits().length === 2);
    expect(done.filter((r) => r === 'ok')).toHaveLength(2);
    expect(done.filter((r) => r === 'rate_limited')).toHaveLength(16);
    const refused = await client.pullIdentityFile(subject, new Date(), { clientId: 'cli_flood' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BureauRateLimitedError);
    // Two waiting ahead of it and one of its own at 2 a second: come back in 2 s.
    expect((refused as BureauRateLimitedError).status).toBe(429);
    expect((refused as BureauRateLimitedError).extra).toEqual({ retryAfter: 2 });
    clock.advance(NEXT_SECOND_MS);
    await until(() => done.length === 20);
    expect(done.filter((r) => r === 'ok')).toHaveLength(4);
    expect(done).not.toContain('busy');
  });

  it.skipIf(!process.env.REDIS_URL)('splits one cap between clients calling through different processes', async () => {
    // A clock of its own: the per-second counters in Redis are named by the second, and other tests use 10:00.
    clock.set('2026-02-01T08:00:00.000Z');
    const connections = [new Redis(process.env.REDIS_URL ?? ''), new Redis(process.env.REDIS_URL ?? '')];
    try {
      await Promise.all(connections.map((redis) => redis.ping()));
      const [first, second] = connections.map((redis) => adapter({ maxPerSecond: 4, timeoutMs: 5_000, redis })) as [
        HttpBureau,
        HttpBureau,
      ];
      const id = Math.random().toString(36).slice(2, 8);
      const [a, b] = [`cli_a${id}`, `cli_b${id}`];
      // Each process has seen one client call; the next second each learns of the other's through Redis.
      expect(await ending(first.pullCreditFile(subject, new Date(), { clientId: a }))).toBe('ok');
      expect(await ending(second.pullCreditFile(subject, new Date(), { clientId: b }))).toBe('ok');
      clock.advance(NEXT_SECOND_MS);
      const fromA = pulls(first, 8, { clientId: a });
      const fromB = pulls(second, 4, { clientId: b });
      await until(() => fromA.length === 2 && fromB.length === 2 && clock.pendingWaits().length === 8);
      clock.advance(NEXT_SECOND_MS);
      await until(() => fromA.length === 4 && fromB.length === 4);
      expect([...fromA, ...fromB].every((r) => r === 'ok')).toBe(true);
    } finally {
      for (const redis of connections) redis.disconnect();
    }
  });
});
