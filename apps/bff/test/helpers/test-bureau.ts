import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { HttpBureau, type HttpBureauOptions } from '../../src/bureau/http/adapter.ts';
import { bureauRequestHandler } from '../../src/bureau/http/server.ts';
import { SandboxBureau } from '../../src/bureau/sandbox/sandbox-bureau.ts';
import type { Config } from '../../src/config.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/logger.ts';
import { openAnswerKey } from '../../src/modules/verification/answer-key.ts';
import type { TestApp } from './harness.ts';
import { productionEnv } from './harness.ts';

/**
 * How the bureau answers: the deterministic sandbox bureau over the contract (what `pnpm bureau` serves),
 * 500s (or another failing `status`; with `times`, that many before answering as the sandbox again), no answer at all,
 * a fixed body with status 200, or a refusal with a fixed status (404: no file for this identity).
 */
export type BureauBehaviour =
  | { kind: 'sandbox' }
  | { kind: 'fail'; status?: number; times?: number }
  | { kind: 'hang' }
  | { kind: 'raw'; body: (path: string) => string }
  | { kind: 'refuse'; status: number };

export interface TestBureau {
  url: string;
  apiKey: string;
  /** Every call the bureau received, in arrival order: its path and arrival time (epoch ms). */
  calls: { path: string; at: number }[];
  behave(behaviour: BureauBehaviour): void;
  close(): Promise<void>;
}

/** A real HTTP bureau on 127.0.0.1 whose behaviour the test switches. */
export const startTestBureau = async (): Promise<TestBureau> => {
  const apiKey = `bk_test_${Math.random().toString(36).slice(2)}`;
  const sandbox = bureauRequestHandler({ provider: new SandboxBureau(), apiKey });
  let behaviour: BureauBehaviour = { kind: 'sandbox' };
  const calls: TestBureau['calls'] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    calls.push({ path, at: Date.now() });
    if (behaviour.kind === 'sandbox') return void sandbox(req, res);
    req.resume();
    if (behaviour.kind === 'hang') return;
    if (behaviour.kind === 'fail') {
      const { status = 500, times } = behaviour;
      if (times !== undefined) behaviour = times > 1 ? { ...behaviour, times: times - 1 } : { kind: 'sandbox' };
      res.writeHead(status, { 'content-type': 'application/json' });
      return void res.end('{"error":{"code":"internal","message":"bureau down"}}');
    }
    if (behaviour.kind === 'refuse') {
      res.writeHead(behaviour.status, { 'content-type': 'application/json' });
      return void res.end('{"error":{"code":"not_found","message":"no file for this identity"}}');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(behaviour.body(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    calls,
    behave(next) {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** A production instance's settings pointing at `bureau`. */
export const productionWithBureau = (
  bureau: Pick<TestBureau, 'url' | 'apiKey'>,
  extra: Partial<Record<keyof Config, string>> = {},
): Partial<Record<keyof Config, string>> => ({
  ...productionEnv(),
  BUREAU_URL: bureau.url,
  BUREAU_API_KEY: bureau.apiKey,
  ...extra,
});

/**
 * Passes identity verification the way the person would, knowing their own file: production has no sandbox
 * answer key, so the test reads the session's sealed key with the instance's cipher (as only the server can).
 */
export const verifyInProduction = async (app: TestApp, token: string, userId: string) => {
  const questions = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token });
  if (questions.status !== 200) return { questions, result: undefined };
  const sessionId = questions.body.data.sessionId as string;
  const { rows } = await app.db.query<{ answer_key_enc: string }>(
    'select answer_key_enc from verification_sessions where id = $1',
    [sessionId],
  );
  const key = openAnswerKey(app.ctx.cipher, sessionId, rows[0]?.answer_key_enc as string);
  const result = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
    token,
    body: { sessionId, answers: Object.entries(key).map(([questionId, answerId]) => ({ questionId, answerId })) },
  });
  return { questions, result };
};

/**
 * The HTTP adapter against `bureau` on `clock`, its log lines collected in `logs`: one attempt's timeout of a second,
 * two quick retries, a breaker and a cap no test reaches unless it sets them.
 */
export const testBureauAdapter = (
  bureau: Pick<TestBureau, 'url' | 'apiKey'>,
  logs: string[],
  clock: Clock,
  options: Partial<HttpBureauOptions> = {},
): HttpBureau => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  return new HttpBureau({
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
};
