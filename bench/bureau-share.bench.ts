/**
 * `pnpm bench:bureau-share`: what a noisy neighbour does to another client's verification questions through the HTTP
 * bureau's per-second cap.
 *
 * One API instance (a throwaway PostgreSQL schema with DATABASE_URL, else in-memory PGlite; Redis with REDIS_URL) in
 * front of the sandbox bureau over HTTP, answering after BENCH_BUREAU_LATENCY_MS (50), capped at BENCH_CAP (20) calls a
 * second; the API's per-client request limit is lifted so that the flood reaches the bureau's share. Client B asks for
 * BENCH_QUIET_CALLS (30) users' questions one every 200 ms, first alone, then while client A asks for a new user's
 * questions BENCH_FLOOD_RATE (240) times a second for BENCH_FLOOD_SECONDS (10), from a process of its own (this file
 * again, BENCH_SHARE_ROLE=flood) so the flood's client side does not share the API's event loop. Then one of A's users
 * asks for its questions 500 times in 5 s. Prints B's latency quiet and under the flood, every status, and the bureau
 * calls; the latency is reported, not judged (the suite's bureau-fair-share test asserts the statuses).
 */
import { fork } from 'node:child_process';
import { createApp } from '../apps/bff/src/app.ts';
import { buildContext, connectRedis } from '../apps/bff/src/bootstrap.ts';
import { startBureauServer } from '../apps/bff/src/bureau/http/server.ts';
import type { BureauProvider } from '../apps/bff/src/bureau/provider.ts';
import { SandboxBureau } from '../apps/bff/src/bureau/sandbox/sandbox-bureau.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import { listen } from '../apps/bff/src/server.ts';
import { seedMonitoredUsers } from '../apps/bff/test/helpers/seed-users.ts';
import { benchClient, CPUS, envInt, loadAverage, openBenchDb, percentile } from './common.ts';

const CAP = envInt('BENCH_CAP', 20);
const LATENCY_MS = envInt('BENCH_BUREAU_LATENCY_MS', 50);
const QUIET_CALLS = envInt('BENCH_QUIET_CALLS', 30);
const FLOOD_RATE = envInt('BENCH_FLOOD_RATE', 240);
const FLOOD_SECONDS = envInt('BENCH_FLOOD_SECONDS', 10);
const QUIET_GAP_MS = 200;
const SAME_USER_CALLS = 500;
const API_KEY = 'bk_bench_bureau_share';

interface Answer {
  status: number;
  ms: number;
}
/** What the parent sends the flood process, and what it answers. */
interface FloodOrder {
  url: string;
  token: string;
  userIds: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const askQuestions = async (url: string, token: string, userId: string): Promise<Answer> => {
  const started = performance.now();
  const res = await fetch(`${url}/v1/users/${userId}/verification/questions`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
};

/** The flood process: each of its users' questions once, FLOOD_RATE a second, then every answer back to the parent. */
const flood = async ({ url, token, userIds }: FloodOrder): Promise<Answer[]> => {
  const started = performance.now();
  const asked: Promise<Answer>[] = [];
  const tick = 50;
  for (let sent = 0; sent < userIds.length; ) {
    const due = Math.min(userIds.length, Math.round(((performance.now() - started + tick) / 1000) * FLOOD_RATE));
    for (; sent < due; sent++) asked.push(askQuestions(url, token, userIds[sent] as string));
    await sleep(tick);
  }
  return Promise.all(asked);
};

if (process.env.BENCH_SHARE_ROLE === 'flood') {
  process.once('message', (order) => {
    void flood(order as FloodOrder).then((answers) => process.send?.(answers, () => process.exit(0)));
  });
} else {
  await main();
}

async function main() {
  // The sandbox bureau, answering as slowly as a real one might, with the second each call reached it.
  const sandbox = new SandboxBureau();
  const callSeconds: number[] = [];
  const slow =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      callSeconds.push(Math.floor(Date.now() / 1000));
      await sleep(LATENCY_MS);
      return work(...args);
    };
  const provider: BureauProvider = {
    name: 'sandbox',
    pullCreditFile: slow(sandbox.pullCreditFile.bind(sandbox)),
    pullIdentityFile: slow(sandbox.pullIdentityFile.bind(sandbox)),
    simulateScore: slow(sandbox.simulateScore.bind(sandbox)),
  };
  const bureau = await startBureauServer({ provider, apiKey: API_KEY });
  const config = loadConfig({
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: '/nonexistent',
    LOG_LEVEL: 'silent',
    BUREAU_URL: bureau.url,
    BUREAU_API_KEY: API_KEY,
    BUREAU_MAX_PER_SECOND: String(CAP),
    RATE_LIMIT_USER_OPS_PER_MIN: '100000000',
  });
  const logger = createLogger('silent');
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger) : undefined;
  if (redis && redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  const db = await openBenchDb();
  const ctx = await buildContext({ config, db, logger, redis });
  const api = await listen(createApp(ctx), config);

  const statuses = (answers: Answer[]) => {
    const counts = new Map<number, number>();
    for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
    return [...counts].map(([status, n]) => `${n}×${status}`).join(', ');
  };
  const latency = (answers: Answer[]) => {
    const ms = answers.map((a) => a.ms);
    const fmt = (n: number) => `${n.toFixed(0)} ms`;
    return `p50 ${fmt(percentile(ms, 0.5))}, p95 ${fmt(percentile(ms, 0.95))}, max ${fmt(Math.max(...ms))}`;
  };
  const userIdsOf = async (clientId: string) =>
    (await db.query<{ id: string }>('select id from users where client_id = $1 order by external_user_id', [clientId])).rows.map(
      (row) => row.id,
    );
  /** B's users one after another, as people arrive. */
  const quietRun = async (token: string, userIds: string[]) => {
    const answers: Answer[] = [];
    for (const userId of userIds) {
      answers.push(await askQuestions(api.url, token, userId));
      await sleep(QUIET_GAP_MS);
    }
    return answers;
  };

  try {
    const noisy = await benchClient(db, api.url);
    const quiet = await benchClient(db, api.url);
    const dueAt = new Date(Date.now() + 86_400_000);
    await seedMonitoredUsers(ctx, { clientId: noisy.clientId, count: FLOOD_RATE * FLOOD_SECONDS, dueAt, prefix: 'noisy' });
    await seedMonitoredUsers(ctx, { clientId: quiet.clientId, count: 2 * QUIET_CALLS, dueAt, prefix: 'quiet' });
    const flooders = await userIdsOf(noisy.clientId);
    const quietUsers = await userIdsOf(quiet.clientId);

    const alone = await quietRun(quiet.token, quietUsers.slice(0, QUIET_CALLS));
    // Past the share's activity window, so the flood starts with B idle, as a flood would.
    await sleep(3_500);
    const child = fork(import.meta.filename, { env: { ...process.env, BENCH_SHARE_ROLE: 'flood' } });
    const noisyDone = new Promise<Answer[]>((resolve, reject) => {
      child.once('message', (answers) => resolve(answers as Answer[]));
      child.once('exit', (code) => reject(new Error(`the flood process exited with ${code}`)));
    });
    callSeconds.length = 0;
    const floodStarted = performance.now();
    const cpuBefore = process.cpuUsage();
    child.send({ url: api.url, token: noisy.token, userIds: flooders } satisfies FloodOrder);
    await sleep(1_000);
    const underFlood = await quietRun(quiet.token, quietUsers.slice(QUIET_CALLS));
    const noisyAnswers = await noisyDone;
    const floodMs = performance.now() - floodStarted;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuShare = (cpu.user + cpu.system) / 1000 / floodMs;
    const perSecond = new Map<number, number>();
    for (const second of callSeconds) perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    const floodCalls = callSeconds.length;

    callSeconds.length = 0;
    const repeated: Promise<Answer>[] = [];
    for (let i = 0; i < SAME_USER_CALLS; i++) {
      repeated.push(askQuestions(api.url, noisy.token, flooders[0] as string));
      await sleep(10);
    }
    const repeatedAnswers = await Promise.all(repeated);

    console.log(
      `${db.kind}${redis ? ' + Redis' : ''}, BUREAU_MAX_PER_SECOND ${CAP}, bureau answers in ${LATENCY_MS} ms\n` +
        `B quiet (${QUIET_CALLS} users, one every ${QUIET_GAP_MS} ms): ${latency(alone)} [${statuses(alone)}]\n` +
        `B under A's flood (${FLOOD_RATE} new users/s for ${FLOOD_SECONDS} s): ${latency(underFlood)} [${statuses(underFlood)}]\n` +
        `A's flood: ${statuses(noisyAnswers)} in ${(floodMs / 1000).toFixed(1)} s; 429s answered in ${latency(
          noisyAnswers.filter((a) => a.status === 429),
        )}\n` +
        `bureau calls during the flood: ${floodCalls} (${(floodCalls / (floodMs / 1000)).toFixed(1)}/s), ` +
        `most arriving in one second ${Math.max(...perSecond.values())}\n` +
        `the API process (with the bureau and B) used ${(cpuShare * 100).toFixed(0)}% of a core during the flood; ` +
        `load average ${loadAverage()} on ${CPUS} CPUs\n` +
        `one user asking ${SAME_USER_CALLS} times in ${(SAME_USER_CALLS * 10) / 1000} s: ${statuses(repeatedAnswers)}, ` +
        `bureau calls ${callSeconds.length}`,
    );
  } finally {
    await api.close();
    await ctx.bureau?.close?.();
    redis?.disconnect();
    await db.close();
    await bureau.close();
  }
}
