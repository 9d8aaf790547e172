import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpBureau, HttpBureauOptions } from '../src/bureau/http/adapter.ts';
import { BUREAU_PATHS } from '../src/bureau/http/contract.ts';
import { BureauUnavailableError } from '../src/bureau/http/errors.ts';
import { bureauRequestHandler } from '../src/bureau/http/server.ts';
import type { BureauProvider, CreditFileResult, CreditSubject, PullOptions } from '../src/bureau/provider.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { enrolActiveUser, partnerConsent } from './helpers/credit-users.ts';
import { enrollment, startTestApp } from './helpers/harness.ts';
import { productionWithBureau, startTestBureau, testBureauAdapter, verifyInProduction } from './helpers/test-bureau.ts';

/** BUREAU_BATCH_PULLS: monitoring pulls that hold their slots at one moment leave in one `/v1/credit-files` request. */

const person = (i: number): CreditSubject => ({
  userId: `usr_batch${String(i).padStart(4, '0')}`,
  firstName: 'Batch',
  lastName: `Person${i}`,
  ssnLast4: String(2100 + i),
  dateOfBirth: `19${60 + i}-03-1${i % 9}`,
  address: { street: `${10 + i} Elm St`, city: 'Dayton', state: 'OH', zipCode: '45402' },
});
const ASOF = new Date('2026-11-20T12:00:00.000Z');
const monitoring = (i: number): PullOptions => ({
  clientId: 'cli_batch',
  callClass: 'monitoring',
  monitor: true,
  pullId: `usr_batch${i}:period:1`,
});

interface Served {
  url: string;
  /** Each request's path and, for a batch, how many pulls it carried. */
  requests: { path: string; pulls: number }[];
  /** The pull ids the provider was asked for, in order. */
  pullIds: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * The sandbox bureau over HTTP, as `pnpm bureau` serves it, with a provider the test can make fail for one person;
 * `refuseBatch` answers a `/v1/credit-files` request with that status instead (404 is a gateway without batches).
 */
const serve = async (
  options: { refuseBatch?: () => number | undefined; failFor?: string; answer?: (path: string) => string | undefined } = {},
) => {
  const pullIds: Served['pullIds'] = [];
  const sandbox = new SandboxBureau();
  const provider: BureauProvider = {
    name: 'sandbox',
    pullCreditFile: async (subject, asOf, pull) => {
      pullIds.push(pull?.pullId);
      if (subject.ssnLast4 === options.failFor) throw new Error('the bureau could not build this file');
      return sandbox.pullCreditFile(subject, asOf, pull);
    },
    pullIdentityFile: (subject, asOf) => sandbox.pullIdentityFile(subject, asOf),
    simulateScore: (subject, asOf, actions) => sandbox.simulateScore(subject, asOf, actions),
  };
  const apiKey = 'bk_batch_test_key';
  const handler = bureauRequestHandler({ provider, apiKey });
  const requests: Served['requests'] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const entry = { path, pulls: 1 };
    requests.push(entry);
    const refusal = path === BUREAU_PATHS.creditFiles ? options.refuseBatch?.() : undefined;
    if (refusal !== undefined) {
      req.resume();
      res.writeHead(refusal, { 'content-type': 'application/json' });
      return void res.end('{"error":{"code":"refused","message":"not here"}}');
    }
    const fixed = options.answer?.(path);
    if (fixed !== undefined) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(fixed);
    }
    if (path === BUREAU_PATHS.creditFiles) {
      // Counts the batch's pulls from its body, then lets the real handler read it again.
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        entry.pulls = (JSON.parse(Buffer.concat(chunks).toString()) as { pulls: unknown[] }).pulls.length;
      });
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    pullIds,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

const servers: Served[] = [];
const adapters: HttpBureau[] = [];
const logs: string[] = [];
const adapter = (bureau: Served & { apiKey: string }, options: Partial<HttpBureauOptions> = {}) => {
  const created = testBureauAdapter(bureau, logs, new ManualClock(), {
    timeoutMs: 5_000,
    retries: 0,
    batchPulls: true,
    ...options,
  });
  adapters.push(created);
  return created;
};
const started = async (options: Parameters<typeof serve>[0] = {}) => {
  const bureau = await serve(options);
  servers.push(bureau);
  return bureau;
};
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((a) => a.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  logs.length = 0;
});

/** The outcome of a pull: its answer, or the reason it failed. */
const settle = (pull: Promise<CreditFileResult>): Promise<CreditFileResult | string> =>
  pull.then(
    (result) => result,
    (error: unknown) => (error instanceof BureauUnavailableError ? error.reason : `unexpected: ${String(error)}`),
  );
const isFile = (outcome: CreditFileResult | string) => typeof outcome === 'object' && outcome.status === 'ok';

describe('batched monitoring pulls over the bureau contract', () => {
  it('sends the pulls holding slots at once in one request, each answered as its own single pull is', async () => {
    const bureau = await started();
    const batched = adapter(bureau);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => batched.pullCreditFile(person(i), ASOF, monitoring(i))),
    );
    expect(bureau.requests).toEqual([{ path: BUREAU_PATHS.creditFiles, pulls: 12 }]);
    // Billed one pull per key, as twelve single requests would be.
    expect([...bureau.pullIds].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `usr_batch${i}:period:1`).sort());

    const single = adapter(bureau, { batchPulls: false });
    const alone = [];
    for (let i = 0; i < 12; i++) alone.push(await single.pullCreditFile(person(i), ASOF, monitoring(i)));
    expect(results).toEqual(alone);
    expect(results.every((result) => result.status === 'ok')).toBe(true);
    expect(bureau.requests.slice(1).every((request) => request.path === BUREAU_PATHS.creditFile)).toBe(true);
  });

  it('sends interactive pulls alone, batching on or not', async () => {
    const bureau = await started();
    const client = adapter(bureau);
    await Promise.all([0, 1, 2].map((i) => client.pullCreditFile(person(i), ASOF, { clientId: 'cli_batch', pullId: `r${i}` })));
    expect(bureau.requests.map((request) => request.path)).toEqual(Array(3).fill(BUREAU_PATHS.creditFile));
  });

  it('still takes one slot of the cap per pull: a batch carries only the pulls that got one', async () => {
    const bureau = await started();
    const clock = new ManualClock('2026-11-20T12:00:00.000Z');
    const capped = adapter(bureau, { maxPerSecond: 4, clock });
    const pulls = Array.from({ length: 7 }, (_, i) => settle(capped.pullCreditFile(person(i), ASOF, monitoring(i))));
    await expect.poll(() => bureau.requests.length, { interval: 2, timeout: 5_000 }).toBe(1);
    expect(bureau.requests[0]?.pulls).toBe(4);
    // The other three wait for the next second of the adapter's clock.
    await expect.poll(() => clock.pendingWaits().length, { interval: 2, timeout: 5_000 }).toBeGreaterThan(0);
    clock.advance(1_100);
    const outcomes = await Promise.all(pulls);
    expect(outcomes.every(isFile)).toBe(true);
    expect(bureau.requests.map((request) => request.pulls)).toEqual([4, 3]);
  });

  it('fails only the pull whose file the bureau could not build; the others keep theirs', async () => {
    const bureau = await started({ failFor: person(3).ssnLast4 });
    const client = adapter(bureau);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => settle(client.pullCreditFile(person(i), ASOF, monitoring(i)))),
    );
    expect(outcomes[3]).toBe('bureau_error');
    expect(outcomes.filter(isFile)).toHaveLength(5);
    expect(bureau.requests).toEqual([{ path: BUREAU_PATHS.creditFiles, pulls: 6 }]);
  });

  it('refuses only the answer that breaks the contract or names another pull, and every pull when the answers do not match the pulls', async () => {
    const { file } = (await new SandboxBureau().pullCreditFile(person(0), ASOF)) as Extract<CreditFileResult, { status: 'ok' }>;
    const of = (i: number) => ({ reference: person(i).userId, pullId: monitoring(i).pullId });
    let results: unknown[] = [
      { ...of(0), status: 'ok', file },
      { ...of(1), status: 'ok', file: { ...file, monthlyScores: [] } },
      { ...of(2), status: 'frozen' },
      // Person 4's file in person 3's place: a gateway that reordered its answers.
      { ...of(4), status: 'ok', file },
      { ...of(3), status: 'ok', file },
    ];
    const bureau = await started({
      answer: (path) => (path === BUREAU_PATHS.creditFiles ? JSON.stringify({ results }) : undefined),
    });
    const client = adapter(bureau);
    const pullAll = (count: number) =>
      Promise.all(Array.from({ length: count }, (_, i) => settle(client.pullCreditFile(person(i), ASOF, monitoring(i)))));
    const [first, second, third, fourth, fifth] = await pullAll(5);
    expect(first).toMatchObject({ status: 'ok' });
    expect(second).toBe('invalid_answer');
    expect(third).toEqual({ status: 'frozen' });
    expect([fourth, fifth]).toEqual(['invalid_answer', 'invalid_answer']);
    results = results.slice(0, 2);
    expect(await pullAll(3)).toEqual(['invalid_answer', 'invalid_answer', 'invalid_answer']);
    // Reasons, counts and paths only: nothing of the request or the file in the log.
    const logged = logs.join('');
    expect(logged).toContain('invalid_answer');
    for (const value of ['Person0', 'Person1', 'Elm St', person(0).ssnLast4, person(0).dateOfBirth, 'Dayton']) {
      expect(logged).not.toContain(value);
    }
  });

  it.each([404, 405, 403])(
    'goes back to single pulls for good when the first batch is refused with %i, without failing a pull',
    async (status) => {
      const bureau = await started({ refuseBatch: () => status });
      const client = adapter(bureau);
      const first = await Promise.all([0, 1, 2, 3].map((i) => settle(client.pullCreditFile(person(i), ASOF, monitoring(i)))));
      expect(first.every(isFile)).toBe(true);
      const later = await Promise.all([4, 5].map((i) => settle(client.pullCreditFile(person(i), ASOF, monitoring(i)))));
      expect(later.every(isFile)).toBe(true);
      expect(bureau.requests.map((request) => request.path)).toEqual([
        BUREAU_PATHS.creditFiles,
        ...Array(6).fill(BUREAU_PATHS.creditFile),
      ]);
      expect(logs.join('')).toContain('refused a batched pull');
    },
  );

  it('sends a refused batch’s pulls alone once batches have worked, and keeps batching', async () => {
    let refuseNext = false;
    const bureau = await started({ refuseBatch: () => (refuseNext ? 400 : undefined) });
    const client = adapter(bureau);
    const round = (from: number) =>
      Promise.all([from, from + 1, from + 2].map((i) => settle(client.pullCreditFile(person(i), ASOF, monitoring(i)))));
    expect((await round(0)).every(isFile)).toBe(true);
    refuseNext = true;
    expect((await round(3)).every(isFile)).toBe(true);
    refuseNext = false;
    expect((await round(6)).every(isFile)).toBe(true);
    expect(bureau.requests.map((request) => request.path)).toEqual([
      BUREAU_PATHS.creditFiles,
      BUREAU_PATHS.creditFiles,
      ...Array(3).fill(BUREAU_PATHS.creditFile),
      BUREAU_PATHS.creditFiles,
    ]);
  });
});

describe('monitoring with BUREAU_BATCH_PULLS against the HTTP bureau', () => {
  const DAY = 86_400_000;
  let bureau: Awaited<ReturnType<typeof startTestBureau>>;
  beforeAll(async () => {
    bureau = await startTestBureau();
  });
  afterAll(() => bureau.close());

  it('refreshes every customer through batches, to the same scores as the sandbox’s own pulls', async () => {
    const production = await startTestApp({ config: productionWithBureau(bureau, { BUREAU_BATCH_PULLS: 'true' }) });
    const sandbox = await startTestApp();
    try {
      for (const app of [production, sandbox]) app.clock.set('2026-11-23T10:00:00.000Z');
      const liveClient = await production.createClient();
      const liveToken = await production.token(liveClient);
      const sandboxClient = await sandbox.createClient();
      const sandboxToken = await sandbox.token(sandboxClient);
      const pairs: [string, string][] = [];
      for (let i = 0; i < 6; i++) {
        const identity = enrollment({
          ssn: String(3300 + i),
          firstName: 'Batch',
          lastName: `Member${i}`,
          dateOfBirth: `1979-05-0${i + 1}`,
        });
        const enrolled = await production.request('POST', '/v1/users/enroll', {
          token: liveToken,
          body: { ...identity, consent: partnerConsent(production) },
        });
        const liveUser = enrolled.body.data.userId as string;
        expect((await verifyInProduction(production, liveToken, liveUser)).result?.status).toBe(200);
        pairs.push([liveUser, await enrolActiveUser(sandbox, sandboxToken, { ...identity, externalUserId: `batch-${i}` })]);
      }
      bureau.calls.length = 0;
      for (let period = 1; period <= 2; period++) {
        for (const app of [production, sandbox]) app.clock.advance(30 * DAY);
        expect((await runMonitoringUntilIdle(production.ctx)).outcomes.refreshed).toBe(6);
        expect((await runMonitoringUntilIdle(sandbox.ctx)).outcomes.refreshed).toBe(6);
      }
      const paths = bureau.calls.map((call) => call.path);
      expect(paths.filter((path) => path === BUREAU_PATHS.creditFile)).toEqual([]);
      const batches = paths.filter((path) => path === BUREAU_PATHS.creditFiles).length;
      expect(batches).toBeGreaterThan(0);
      expect(batches).toBeLessThanOrEqual(4);
      const history = async (app: typeof production, token: string, userId: string) =>
        (await app.request('GET', `/v1/users/${userId}/credit-score/history?months=36&limit=100`, { token })).body.data;
      for (const [liveUser, sandboxUser] of pairs) {
        const live = await history(production, await production.token(liveClient), liveUser);
        expect(live.length).toBeGreaterThan(20);
        expect(live).toEqual(await history(sandbox, await sandbox.token(sandboxClient), sandboxUser));
      }
    } finally {
      await production.close();
      await sandbox.close();
    }
  });
});
