import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpBureau, type HttpBureauOptions } from '../src/bureau/http/adapter.ts';
import { BureauUnavailableError } from '../src/bureau/http/errors.ts';
import type { CreditSubject } from '../src/bureau/provider.ts';
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
const adapters: HttpBureau[] = [];
const logs: string[] = [];

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
afterEach(async () => {
  bureau.behave({ kind: 'sandbox' });
  bureau.calls.length = 0;
  logs.length = 0;
  await Promise.all(adapters.splice(0).map((created) => created.close()));
});
afterAll(() => bureau.close());

describe('the HTTP bureau adapter when the bureau misbehaves', () => {
  it('retries a 5xx the configured number of times, then answers 503 bureau_error; a healthy bureau answers at once', async () => {
    const client = adapter({ retries: 2 });
    bureau.behave({ kind: 'fail' });
    const failure = await client.pullCreditFile(subject, new Date()).catch((error: unknown) => error);
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
    const client = adapter({ retries: 0, breakerThreshold: 3, breakerHalfOpenMs: 300 });
    bureau.behave({ kind: 'fail' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('bureau_error');
    }
    expect(client.circuitState).toBe('open');
    const callsWhenOpened = bureau.calls.length;
    const failFast = await client.pullCreditFile(subject, new Date()).catch((error: unknown) => error);
    expect((failFast as BureauUnavailableError).reason).toBe('circuit_open');
    // A caller is told when to come back.
    expect((failFast as BureauUnavailableError).headers?.['Retry-After']).toBe('1');
    expect(bureau.calls.length).toBe(callsWhenOpened);

    bureau.behave({ kind: 'sandbox' });
    // Half-open after 300 ms: the next call is the test call, succeeds, and closes the circuit.
    let recovered = 'circuit_open';
    for (let tries = 0; tries < 50 && recovered !== 'ok'; tries += 1) {
      await sleep(50);
      recovered = await outcome(client.pullCreditFile(subject, new Date()));
    }
    expect(recovered).toBe('ok');
    expect(client.circuitState).toBe('closed');
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

  it('gives up on a bureau that never answers after the timeout, as 503 timeout', async () => {
    const client = adapter({ retries: 0, timeoutMs: 200 });
    bureau.behave({ kind: 'hang' });
    expect(await outcome(client.pullCreditFile(subject, new Date()))).toBe('timeout');
  });
});

describe('BUREAU_MAX_PER_SECOND', () => {
  /** How many calendar seconds the bureau's calls arrived in, first to last. */
  const secondsSpanned = () => {
    const seconds = bureau.calls.map((call) => Math.floor(call.at / 1000));
    return Math.max(...seconds) - Math.min(...seconds) + 1;
  };

  it('holds calls over the cap until the next second instead of failing them', async () => {
    const client = adapter({ maxPerSecond: 4, timeoutMs: 5_000 });
    const results = await Promise.all(Array.from({ length: 10 }, () => outcome(client.pullCreditFile(subject, new Date()))));
    expect(results.every((result) => result === 'ok')).toBe(true);
    expect(bureau.calls).toHaveLength(10);
    // 4 a second: 10 calls cannot all start within fewer than 3 calendar seconds.
    expect(secondsSpanned()).toBeGreaterThanOrEqual(3);
  });

  it.skipIf(!process.env.REDIS_URL)('is one budget for every process sharing Redis', async () => {
    const connections = [new Redis(process.env.REDIS_URL ?? ''), new Redis(process.env.REDIS_URL ?? '')];
    try {
      // Until a connection is ready each process caps on its own (the insurance limiter): wait, as a worker would have.
      await Promise.all(connections.map((redis) => redis.ping()));
      const [first, second] = connections.map((redis) => adapter({ maxPerSecond: 3, timeoutMs: 6_000, redis })) as [
        ReturnType<typeof adapter>,
        ReturnType<typeof adapter>,
      ];
      const pulls = Array.from({ length: 6 }, (_, index) =>
        outcome((index % 2 ? first : second).pullCreditFile(subject, new Date())),
      );
      expect((await Promise.all(pulls)).every((result) => result === 'ok')).toBe(true);
      // Two separate budgets would start all 6 at once; one shared budget of 3 needs a second second.
      expect(secondsSpanned()).toBeGreaterThanOrEqual(2);
    } finally {
      for (const redis of connections) redis.disconnect();
    }
  });
});
