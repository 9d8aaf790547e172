import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpBureau, type HttpBureauOptions } from '../src/bureau/http/adapter.ts';
import { BUREAU_PATHS, toBureauSimulationRequest } from '../src/bureau/http/contract.ts';
import { BureauUnavailableError } from '../src/bureau/http/errors.ts';
import type { SimulationAction } from '../src/bureau/provider.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { spawnBuilt } from './helpers/processes.ts';
import { sandboxSubject } from './helpers/sandbox-subject.ts';
import { builtEntry } from './helpers/server-build.ts';
import { startTestBureau, type TestBureau } from './helpers/test-bureau.ts';

// Score simulations over the bureau contract: `pnpm bureau` serving them from the sandbox, and the production adapter
// calling them through its retries, breaker and per-second cap, never as a billed pull.

const subject = sandboxSubject({ userId: 'usr_simulation000000000' });
const asOf = new Date('2026-11-23T10:00:00.000Z');
/** Jane Doe's file as of asOf: tl_1 is an open card with a balance of $4,171. */
const actions: SimulationAction[] = [{ type: 'pay_down_balance', tradelineId: 'tl_1', amount: 2000 }, { type: 'hard_inquiry' }];

const adapterFor = (url: string, apiKey: string, clock: ManualClock, options: Partial<HttpBureauOptions> = {}) =>
  new HttpBureau({
    url,
    apiKey,
    timeoutMs: 60_000,
    retries: 2,
    retryBaseMs: 10,
    breakerThreshold: 100,
    breakerHalfOpenMs: 30_000,
    maxPerSecond: 1_000,
    logger: createLogger('silent'),
    clock,
    ...options,
  });

/** The reason a call failed, or 'ok'. */
const outcome = async (call: Promise<unknown>): Promise<string> => {
  try {
    await call;
    return 'ok';
  } catch (error) {
    if (error instanceof BureauUnavailableError) return error.reason;
    throw error;
  }
};

describe('pnpm bureau', () => {
  const apiKey = 'bk_simulation_test_key';
  let child: ChildProcessWithoutNullStreams;
  let output = '';
  let url: string;
  beforeAll(async () => {
    child = spawnBuilt(builtEntry('cli/bureau'), [], { BUREAU_PORT: '0', BUREAU_API_KEY: apiKey });
    url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /URL:\s+(\S+)/.exec(output)?.[1];
        if (found) resolve(found);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`pnpm bureau exited (${code}): ${output}`)));
    });
  });
  afterAll(async () => {
    if (child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  });

  /** `key` null: no key header at all. */
  const post = (path: string, body: unknown, key: string | null = apiKey) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
      body: JSON.stringify(body),
    });

  it('answers the sandbox bureau’s simulation, to the production adapter too', async () => {
    const expected = await new SandboxBureau().simulateScore(subject, asOf, actions);
    expect(expected.simulatedScore).not.toBe(expected.score);
    const res = await post(BUREAU_PATHS.scoreSimulation, toBureauSimulationRequest(subject, asOf, actions));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expected);

    const adapter = adapterFor(url, apiKey, new ManualClock());
    try {
      expect(await adapter.simulateScore(subject, asOf, actions)).toEqual(expected);
    } finally {
      await adapter.close();
    }
    // One request-log line per call, without the body.
    await expect.poll(() => output.match(/POST \/v1\/score-simulation 200 \d+ ms/g)?.length).toBe(2);
    expect(output).not.toContain('Doe');
  });

  it('asks for the key and checks the body as for a pull, and refuses an action the file does not fit', async () => {
    const body = toBureauSimulationRequest(subject, asOf, actions);
    expect((await post(BUREAU_PATHS.scoreSimulation, body, null)).status).toBe(401);
    expect((await post(BUREAU_PATHS.scoreSimulation, body, 'bk_wrong')).status).toBe(401);

    const tooMany = await post(BUREAU_PATHS.scoreSimulation, { ...body, actions: Array(11).fill({ type: 'hard_inquiry' }) });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.message).toContain('actions');
    const unknownType = await post(BUREAU_PATHS.scoreSimulation, { ...body, actions: [{ type: 'win_lottery' }] });
    expect(unknownType.status).toBe(400);
    // A file request is no simulation request: the actions are required.
    expect((await post(BUREAU_PATHS.scoreSimulation, { ...body, actions: undefined })).status).toBe(400);

    const unknownAccount = await post(BUREAU_PATHS.scoreSimulation, {
      ...body,
      actions: [{ type: 'close_account', tradelineId: 'tl_99' }],
    });
    expect(unknownAccount.status).toBe(422);
    expect((await unknownAccount.json()).error).toMatchObject({
      code: 'invalid_action',
      message: expect.stringMatching(/^actions\.0\.tradelineId: /),
    });
    expect((await fetch(`${url}${BUREAU_PATHS.scoreSimulation}`)).status).toBe(405);
  });
});

describe('HttpBureau.simulateScore', () => {
  let bureau: TestBureau;
  const adapters: HttpBureau[] = [];
  const adapter = (clock: ManualClock, options: Partial<HttpBureauOptions> = {}) => {
    const created = adapterFor(bureau.url, bureau.apiKey, clock, options);
    adapters.push(created);
    return created;
  };
  beforeAll(async () => {
    bureau = await startTestBureau();
  });
  afterEach(async () => {
    bureau.behave({ kind: 'sandbox' });
    bureau.calls.length = 0;
    await Promise.all(adapters.splice(0).map((created) => created.close()));
  });
  afterAll(() => bureau.close());

  it('retries a 503 after a backoff on its clock, then answers the parsed simulation', async () => {
    const clock = new ManualClock();
    const client = adapter(clock);
    bureau.behave({ kind: 'fail', status: 503, times: 1 });
    const answer = client.simulateScore(subject, asOf, actions);
    await expect
      .poll(() => bureau.calls.length === 1 && (clock.pendingWaits()[0] ?? Infinity) <= 5_000, { interval: 2 })
      .toBe(true);
    clock.advance(clock.pendingWaits()[0] ?? 0);
    expect(await answer).toEqual(await new SandboxBureau().simulateScore(subject, asOf, actions));
    expect(bureau.calls.map((call) => call.path)).toEqual([BUREAU_PATHS.scoreSimulation, BUREAU_PATHS.scoreSimulation]);
  });

  it('maps failures as for a pull: a refused action is not retried, a malformed answer is refused', async () => {
    const client = adapter(new ManualClock());
    expect(await outcome(client.simulateScore(subject, asOf, [{ type: 'miss_payment', tradelineId: 'tl_99' }]))).toBe('rejected');
    expect(bureau.calls).toHaveLength(1);
    bureau.behave({ kind: 'raw', body: () => '{"score":712,"simulatedScore":912}' });
    expect(await outcome(client.simulateScore(subject, asOf, actions))).toBe('invalid_answer');
    bureau.behave({ kind: 'raw', body: () => '{"score":712}' });
    expect(await outcome(client.simulateScore(subject, asOf, actions))).toBe('invalid_answer');
  });

  it('shares the circuit breaker with pulls: once pulls have opened it, a simulation fails fast', async () => {
    const client = adapter(new ManualClock(), { retries: 0, breakerThreshold: 2 });
    bureau.behave({ kind: 'fail' });
    for (let attempt = 0; attempt < 2; attempt += 1)
      expect(await outcome(client.pullCreditFile(subject, asOf))).toBe('bureau_error');
    const calls = bureau.calls.length;
    expect(await outcome(client.simulateScore(subject, asOf, actions))).toBe('circuit_open');
    expect(bureau.calls).toHaveLength(calls);
  });

  it('sends the identity, the day and the actions in the body, with no pull id: a simulation is never billed', () => {
    const body = toBureauSimulationRequest(subject, asOf, actions);
    expect(body).toEqual({
      subject: {
        firstName: 'Jane',
        lastName: 'Doe',
        ssnLast4: '1234',
        dateOfBirth: '1985-04-12',
        address: subject.address,
      },
      asOf: '2026-11-23T10:00:00.000Z',
      reference: subject.userId,
      actions,
    });
    expect(BUREAU_PATHS.scoreSimulation).toBe('/v1/score-simulation');
  });
});
