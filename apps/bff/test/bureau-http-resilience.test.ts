import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpBureau, type HttpBureauOptions } from '../src/bureau/http/adapter.ts';
import { BureauUnavailableError } from '../src/bureau/http/errors.ts';
import type { CreditSubject } from '../src/bureau/provider.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { startTestBureau, type TestBureau } from './helpers/test-bureau.ts';

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
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const created = new HttpBureau({
    url: bureau.url,
    apiKey: bureau.apiKey,
    timeoutMs: 1_000,
    retries: 2,
    retryBaseMs: 10,
    breakerThreshold: 100,
    breakerHalfOpenMs: 30_000,
    maxPerSecond: 1_000,
    logger: createLogger('debug', sink),
    clock,
    ...options,
  });
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
    const connections = [new Redis(process.env.REDIS_URL ?? ''), new Redis(process.env.REDIS_URL ?? '')];
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
