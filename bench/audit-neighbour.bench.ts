/**
 * `pnpm bench:audit-neighbour`: what one client's audit verifies do to another client's reads on the same instance.
 * The API runs in a process of its own (this file, forked with BENCH_NEIGHBOUR_SERVER=1) on in-memory PGlite or a
 * throwaway PostgreSQL schema: client A with a trail of BENCH_TRAIL (35,000) entries, client B with one active user.
 * This process reads B's score with BENCH_READERS (4) back-to-back readers through each phase, and prints B's latency
 * and the API process's event-loop delay per phase:
 *
 *   quiet     nothing else runs;
 *   start     A calls `POST /v1/audit-events/verify?from=start` BENCH_VERIFIES (40) times,
 *             BENCH_VERIFY_CONCURRENCY (10) at a time: every entry re-hashed;
 *   default   BENCH_GROWTH (5,000) entries appended to A's trail, then the same verifies without `from`: from the
 *             newest checkpoint;
 *   snapshot  the same number of checks, in the API process, as the operation ran them before checkpoints: the spool
 *             chained, then the whole trail in one REPEATABLE READ transaction, none shared (`verifyChain`).
 *
 *   pnpm bench:audit-neighbour                                                        # in-memory PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:audit-neighbour   # PostgreSQL, a throwaway schema
 *
 * API on CPU 0, this process on CPU 1 (taskset; BENCH_PIN=0 turns it off). Latency is printed, not judged; exits 1
 * when a read of B answered anything but 200 or a verify anything but an intact chain.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createApp } from '../apps/bff/src/app.ts';
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import { createLogger, openLogDestination } from '../apps/bff/src/logger.ts';
import { appendEntries } from '../apps/bff/src/modules/audit/append-repo.ts';
import type { PendingEntry } from '../apps/bff/src/modules/audit/entry.ts';
import { chainSpooledEntries, verifyChain } from '../apps/bff/src/modules/audit/service.ts';
import { listen } from '../apps/bff/src/server.ts';
import { benchClient, enrolment, envInt, loadAverage, median, openBenchDb, percentile, pin } from './common.ts';

const TRAIL = envInt('BENCH_TRAIL', 35_000);
const GROWTH = envInt('BENCH_GROWTH', 5_000);
const READERS = envInt('BENCH_READERS', 4);
const VERIFIES = envInt('BENCH_VERIFIES', 40);
const VERIFY_CONCURRENCY = envInt('BENCH_VERIFY_CONCURRENCY', 10);
const QUIET_MS = envInt('BENCH_QUIET_MS', 3_000);
const CPU = { api: 0, readers: 1 };

interface Ready {
  url: string;
  bankToken: string;
  neighbourToken: string;
  userId: string;
  db: string;
}
type Command = { cmd: 'append'; n: number } | { cmd: 'snapshot'; count: number; concurrency: number } | { cmd: 'loop' };
interface LoopDelay {
  maxMs: number;
  p99Ms: number;
}

/** Runs `count` calls of `task`, `concurrency` at a time. */
const pooled = async (count: number, concurrency: number, task: () => Promise<void>) => {
  let started = 0;
  await Promise.all(
    Array.from({ length: Math.min(count, concurrency) }, async () => {
      while (started < count) {
        started += 1;
        await task();
      }
    }),
  );
};

// The API process: seeds A's trail and B's user, then serves and answers the coordinator's commands.
const serve = async () => {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: '/nonexistent',
    // What is measured is the verifies' effect on reads, never a 429.
    RATE_LIMIT_BATCH_PER_MIN: '1000000',
    RATE_LIMIT_USER_OPS_PER_MIN: '100000000',
  });
  const db = await openBenchDb();
  const ctx = await buildContext({ config, db, logger: createLogger(config.LOG_LEVEL, openLogDestination()) });
  const api = await listen(createApp(ctx), config);
  config.PUBLIC_URL ??= api.url;
  const bank = await benchClient(db, api.url);
  const neighbour = await benchClient(db, api.url);
  let appended = 0;
  const append = async (n: number) => {
    for (let done = 0; done < n; done += 5000) {
      const entries = Array.from(
        { length: Math.min(5000, n - done) },
        (): PendingEntry => ({
          id: `aud_bench${String(++appended).padStart(12, '0')}`,
          type: 'credit_data.read',
          clientId: bank.clientId,
          actorKind: 'client',
          actorId: bank.clientId,
          userId: `usr_bench${appended % 1000}`,
          requestId: `req_bench${appended}`,
          subject: { operationId: 'getCreditScore' },
          occurredAt: new Date(),
        }),
      );
      await db.transaction((tx) => appendEntries(tx, entries));
    }
  };
  await append(TRAIL);

  const headers = { authorization: `Bearer ${neighbour.token}`, 'content-type': 'application/json' };
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${api.url}${path}`, { ...init, headers });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
    return JSON.parse(text).data;
  };
  const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) });
  const { userId } = await post('/v1/users/enroll', enrolment(`bench-${randomBytes(4).toString('hex')}`));
  const { sessionId } = await call(`/v1/users/${userId}/verification/questions`);
  const { answers } = await call(`/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`);
  await post(`/v1/users/${userId}/verification/answers`, { sessionId, answers });

  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  process.on('message', async (message: Command | 'stop') => {
    if (message === 'stop') {
      await api.close();
      await db.close();
      process.exit(0);
    }
    if (message.cmd === 'loop') {
      process.send?.({ maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 } satisfies LoopDelay);
      loop.reset();
    } else if (message.cmd === 'append') {
      await append(message.n);
      process.send?.('appended');
    } else {
      let broken = 0;
      await pooled(message.count, message.concurrency, async () => {
        await chainSpooledEntries(ctx);
        if (!(await verifyChain(db, ctx.tokens, bank.clientId)).ok) broken += 1;
      });
      process.send?.({ broken });
    }
  });
  process.send?.({ url: api.url, bankToken: bank.token, neighbourToken: neighbour.token, userId, db: db.kind } satisfies Ready);
};

const coordinate = async () => {
  const child = fork(fileURLToPath(import.meta.url), {
    env: { ...process.env, BENCH_NEIGHBOUR_SERVER: '1' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  pin(child.pid, CPU.api);
  pin(process.pid, CPU.readers);
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the API process exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as T);
      });
    });
  const ask = <T>(command: Command) => {
    const answer = next<T>();
    child.send(command);
    return answer;
  };
  const started = performance.now();
  const ready = await next<Ready>();
  console.log(
    `database ${ready.db}; A's trail ${TRAIL} entries (seeded in ${((performance.now() - started) / 1000).toFixed(1)} s); ` +
      `${READERS} readers of B's score; ${VERIFIES} verifies, ${VERIFY_CONCURRENCY} at a time; load average ${loadAverage()}`,
  );
  const score = `${ready.url}/v1/users/${ready.userId}/credit-score`;
  const readHeaders = { authorization: `Bearer ${ready.neighbourToken}` };
  const verifyUrl = `${ready.url}/v1/audit-events/verify`;
  let failures = 0;

  /** B's reads while `during` runs (or for QUIET_MS): latencies in ms. */
  const measure = async (during: () => Promise<void>) => {
    const latencies: number[] = [];
    let running = true;
    const readers = Array.from({ length: READERS }, async () => {
      while (running) {
        const at = performance.now();
        const res = await fetch(score, { headers: readHeaders });
        await res.arrayBuffer();
        latencies.push(performance.now() - at);
        if (res.status !== 200) failures += 1;
      }
    });
    await ask<LoopDelay>({ cmd: 'loop' }); // resets the API's histogram
    const at = performance.now();
    await during();
    const seconds = (performance.now() - at) / 1000;
    running = false;
    await Promise.all(readers);
    return { latencies, seconds, loop: await ask<LoopDelay>({ cmd: 'loop' }) };
  };
  const verifies = (query: string) => async () => {
    const times: number[] = [];
    const checked: number[] = [];
    await pooled(VERIFIES, VERIFY_CONCURRENCY, async () => {
      const at = performance.now();
      const res = await fetch(`${verifyUrl}${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ready.bankToken}` },
      });
      const answer = (await res.json()) as { data?: { ok: boolean; checked: number } };
      times.push(performance.now() - at);
      if (res.status !== 200 || !answer.data?.ok) failures += 1;
      checked.push(answer.data?.checked ?? 0);
    });
    return { times, checked };
  };

  // Warm-up: the read path's caches and JIT, and a first verify's checkpoints out of the way of `start`.
  await measure(() => new Promise((resolve) => setTimeout(resolve, 1000)));
  const rows: { phase: string; seconds: number; latencies: number[]; loop: LoopDelay; verify: string }[] = [];
  const quiet = await measure(() => new Promise((resolve) => setTimeout(resolve, QUIET_MS)));
  rows.push({ phase: 'quiet', ...quiet, verify: '—' });
  for (const [phase, query] of [
    ['start', '?from=start'],
    ['default', ''],
  ] as const) {
    if (phase === 'default') await ask({ cmd: 'append', n: GROWTH });
    let verify = '';
    const run = await measure(async () => {
      const { times, checked } = await verifies(query)();
      verify = `p50 ${median(times).toFixed(0)} / max ${Math.max(...times).toFixed(0)} ms, checked max ${Math.max(...checked)}`;
    });
    rows.push({ phase, ...run, verify });
  }
  const before = await measure(async () => {
    const { broken } = await ask<{ broken: number }>({ cmd: 'snapshot', count: VERIFIES, concurrency: VERIFY_CONCURRENCY });
    failures += broken;
  });
  rows.push({ phase: 'snapshot (before)', ...before, verify: `${VERIFIES} whole-trail checks` });

  console.log('phase              seconds  B reads  B p50 / p99 / max ms        API loop delay p99 / max ms  verifies');
  for (const row of rows) {
    const b = `${median(row.latencies).toFixed(1)} / ${percentile(row.latencies, 0.99).toFixed(1)} / ${Math.max(...row.latencies).toFixed(1)}`;
    const loop = `${row.loop.p99Ms.toFixed(1)} / ${row.loop.maxMs.toFixed(1)}`;
    console.log(
      `${row.phase.padEnd(18)} ${row.seconds.toFixed(1).padStart(7)}  ${String(row.latencies.length).padStart(7)}  ${b.padEnd(26)}  ${loop.padEnd(27)}  ${row.verify}`,
    );
  }
  console.log(`load average at the end ${loadAverage()}`);
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  if (failures > 0) {
    console.error(`${failures} reads or verifies did not answer as expected`);
    process.exit(1);
  }
};

await (process.env.BENCH_NEIGHBOUR_SERVER === '1' ? serve() : coordinate());
