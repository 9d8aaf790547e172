/**
 * `pnpm bench:webhooks-neighbour`: what one client's hanging webhook receivers do to another client's deliveries on
 * the same worker. The real dispatcher runs in this process with the default limits (WEBHOOK_CONCURRENCY 128,
 * WEBHOOK_CONNECTIONS_PER_ORIGIN 32, so a client's slots are 32); the HTTPS receivers run in a child process (this file,
 * forked with BENCH_NEIGHBOUR_RECEIVERS=1). Client B has one receiver that answers at once; client A has BENCH_ORIGINS
 * (5) receivers, each on its own origin, that answer BENCH_HANG_MS (25,000) after a request arrives. B commits one
 * event at a time and its commit → receipt latency is printed per phase:
 *
 *   quiet      B alone, BENCH_SAMPLES (20) events;
 *   noisy      A commits BENCH_EVENTS (300) events (one delivery per receiver each), and once A has its slots on the
 *              wire, B the same number of events as in `quiet`;
 *   uncapped   the same with WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT=WEBHOOK_CONCURRENCY (one client may take every slot, as
 *              before delivery slots per client), BENCH_UNCAPPED_SAMPLES (2) of B's events.
 *
 *   pnpm bench:webhooks-neighbour                                                        # in-memory PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:webhooks-neighbour   # PostgreSQL, a throwaway schema
 *
 * Dispatcher on CPU 0, receivers on CPU 1 (taskset; BENCH_PIN=0 turns it off). BENCH_PHASES picks phases
 * (quiet,noisy,uncapped). Latency is printed, not judged; exits 1 when one of B's events did not arrive within 120 s in
 * `quiet` or `noisy` (in `uncapped` a lost event is the problem shown, and counted in the table).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import selfsigned from 'selfsigned';
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import type { AppContext } from '../apps/bff/src/context.ts';
import type { Caller } from '../apps/bff/src/core/principal.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import { createClient } from '../apps/bff/src/modules/clients/service.ts';
import { clientSlots, type Dispatcher, startDispatcher } from '../apps/bff/src/modules/webhooks/dispatcher.ts';
import { createWebhook, deleteWebhook } from '../apps/bff/src/modules/webhooks/service.ts';
import { recordEvent } from '../apps/bff/src/outbox/outbox.ts';
import { CPUS, envInt, loadAverage, median, openBenchDb, pin } from './common.ts';

const ORIGINS = envInt('BENCH_ORIGINS', 5);
const HANG_MS = envInt('BENCH_HANG_MS', 25_000);
const EVENTS = envInt('BENCH_EVENTS', 300);
const SAMPLES = envInt('BENCH_SAMPLES', 20);
const UNCAPPED_SAMPLES = envInt('BENCH_UNCAPPED_SAMPLES', 2);
const PHASES = (process.env.BENCH_PHASES ?? 'quiet,noisy,uncapped').split(',');
const ARRIVAL_LIMIT_MS = 120_000;
const CPU = { dispatcher: 0, receivers: 1 };
const now = () => performance.timeOrigin + performance.now();

type ToReceivers = { cmd: 'start'; cert: string; key: string } | { cmd: 'stats' } | { cmd: 'reset' };
type FromReceivers =
  | { kind: 'started'; quietUrl: string; noisyUrls: string[] }
  | { kind: 'arrived'; eventId: string; at: number }
  | { kind: 'stats'; inFlight: number; maxInFlight: number; received: number };

// The receivers' process: B's answers at once and reports each arrival; A's hold every answer for HANG_MS.
const receivers = () => {
  const held = new Set<NodeJS.Timeout>();
  const noisy: https.Server[] = [];
  const stats = { inFlight: 0, maxInFlight: 0, received: 0 };
  let generation = 0;
  const tell = (message: FromReceivers) => process.send?.(message);
  const listen = (server: https.Server) =>
    new Promise<string>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve(`https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`)),
    );
  process.on('message', async (message: ToReceivers) => {
    if (message.cmd === 'start') {
      const tls = { cert: message.cert, key: message.key };
      const quiet = https.createServer(tls, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const at = now();
          res.writeHead(200, { 'content-length': '0' }).end();
          tell({ kind: 'arrived', eventId: (JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id, at });
        });
      });
      for (let i = 0; i < ORIGINS; i++) {
        noisy.push(
          https.createServer(tls, (req, res) => {
            req.resume();
            stats.received++;
            stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
            // Counted until answered (or cut off); a request from before a reset no longer counts.
            const seen = generation;
            let done = false;
            const end = () => {
              if (done) return;
              done = true;
              if (seen === generation) stats.inFlight--;
            };
            res.on('close', end);
            const timer = setTimeout(() => {
              held.delete(timer);
              end();
              res.writeHead(200, { 'content-length': '0' }).end();
            }, HANG_MS);
            held.add(timer);
          }),
        );
      }
      tell({ kind: 'started', quietUrl: await listen(quiet), noisyUrls: await Promise.all(noisy.map(listen)) });
    } else if (message.cmd === 'stats') {
      tell({ kind: 'stats', ...stats });
    } else {
      // Ends A's held requests at once, so the worker's attempts end (connection reset) before the next phase.
      for (const timer of held) clearTimeout(timer);
      held.clear();
      for (const server of noisy) server.closeAllConnections();
      generation++;
      Object.assign(stats, { inFlight: 0, maxInFlight: 0, received: 0 });
      tell({ kind: 'stats', ...stats });
    }
  });
  process.on('disconnect', () => process.exit(0));
};

const coordinate = async () => {
  pin(process.pid, CPU.dispatcher);
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), {
    env: { ...process.env, BENCH_NEIGHBOUR_RECEIVERS: '1' },
  });
  pin(child.pid, CPU.receivers);
  const arrivals = new Map<string, number>();
  const waiters: ((message: FromReceivers) => void)[] = [];
  child.on('message', (message: FromReceivers) => {
    if (message.kind === 'arrived') arrivals.set(message.eventId, message.at);
    else waiters.shift()?.(message);
  });
  const ask = <T extends FromReceivers>(message: ToReceivers) =>
    new Promise<T>((resolve) => {
      waiters.push((answer) => resolve(answer as T));
      child.send(message);
    });

  const tls = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const caFile = path.join(os.tmpdir(), `bench-neighbour-ca-${process.pid}.pem`);
  writeFileSync(caFile, tls.cert);
  const urls = await ask<Extract<FromReceivers, { kind: 'started' }>>({ cmd: 'start', cert: tls.cert, key: tls.private });

  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    // The receivers run on this machine, as a developer's do with `pnpm start`.
    WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
    WEBHOOK_CA_FILE: caFile,
  });
  const db = await openBenchDb();
  const ctx = await buildContext({ config, db, logger: createLogger('silent') });
  const caller = async (name: string): Promise<Caller> => {
    const { client } = await createClient(db, ctx.clock, config.APP_ENV, { name, contactEmail: 'ops@bank.test' });
    return { clientId: client.id, principal: { kind: 'access', client, scopes: ['write', 'webhooks'] } };
  };
  const subscribe = (who: Caller, url: string) =>
    createWebhook(ctx, who, { url, events: ['user.enrolled'], secret: 'whsec_neighbour_0123456789' });
  let users = 0;
  const commit = (who: Caller, count: number) =>
    db.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const event = await recordEvent(tx, ctx.ids, {
          clientId: who.clientId,
          type: 'user.enrolled',
          data: {
            userId: `usr_nb${++users}`,
            externalUserId: `nb-${users}`,
            email: 'nb@example.test',
            status: 'pending_verification',
          },
          createdAt: new Date(),
        });
        ids.push(event.id);
      }
      return ids;
    });
  const quiet = await caller('Bench quiet bank');
  await subscribe(quiet, urls.quietUrl);

  /** B's events one at a time: commit, then wait for its receipt. */
  const sampleB = async (count: number) => {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const [eventId] = (await commit(quiet, 1)) as [string];
      const committed = now();
      const deadline = committed + ARRIVAL_LIMIT_MS;
      while (!arrivals.has(eventId) && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
      const at = arrivals.get(eventId);
      if (at === undefined) return { latencies, lost: count - i };
      latencies.push(Math.max(0, at - committed));
    }
    return { latencies, lost: 0 };
  };

  const run = async (name: string, dispatcherCtx: AppContext, samples: number, noisy: boolean) => {
    const dispatcher: Dispatcher = startDispatcher(dispatcherCtx);
    await dispatcher.listening;
    const slots = clientSlots(dispatcherCtx.config);
    const hooks: string[] = [];
    const neighbour = await caller(`Bench noisy bank ${name}`);
    await ask({ cmd: 'reset' });
    try {
      await sampleB(2); // the connection to B's receiver, warm
      if (noisy) {
        for (const url of urls.noisyUrls) hooks.push((await subscribe(neighbour, url)).webhookId);
        await commit(neighbour, EVENTS);
        // B starts once A holds all the slots it can get (or after 10 s).
        const want = Math.min(slots, dispatcherCtx.config.WEBHOOK_CONCURRENCY, ORIGINS * config.WEBHOOK_CONNECTIONS_PER_ORIGIN);
        for (const until = now() + 10_000; now() < until; await new Promise((resolve) => setTimeout(resolve, 20))) {
          if ((await ask<Extract<FromReceivers, { kind: 'stats' }>>({ cmd: 'stats' })).inFlight >= want) break;
        }
      }
      const result = await sampleB(samples);
      const stats = await ask<Extract<FromReceivers, { kind: 'stats' }>>({ cmd: 'stats' });
      return { ...result, slots, aInFlight: stats.inFlight, aMaxInFlight: stats.maxInFlight };
    } finally {
      // Stopping first, so nothing more starts; ending A's held requests ends the attempts stop() waits for. Only then
      // A's subscriptions (and their queued deliveries) go, with no worker settling them meanwhile.
      const stopping = dispatcher.stop();
      await ask({ cmd: 'reset' });
      await stopping;
      for (const id of hooks) await deleteWebhook(ctx, neighbour, id);
    }
  };

  let lost = 0;
  try {
    const database = process.env.DATABASE_URL
      ? `PostgreSQL ${(await db.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v}`
      : 'PGlite (in memory)';
    console.log(
      `${database}; ${CPUS} CPUs; load ${loadAverage()}; WEBHOOK_CONCURRENCY ${config.WEBHOOK_CONCURRENCY}, ` +
        `WEBHOOK_CONNECTIONS_PER_ORIGIN ${config.WEBHOOK_CONNECTIONS_PER_ORIGIN}, WEBHOOK_TIMEOUT_MS ${config.WEBHOOK_TIMEOUT_MS}`,
    );
    console.log(
      `client A: ${ORIGINS} receivers (one origin each) answering after ${HANG_MS / 1000} s, ${EVENTS} events ` +
        `(${ORIGINS * EVENTS} deliveries); client B: one receiver answering at once`,
    );
    const widths = [44, 12, 10, 10, 10, 22];
    const line = (cells: string[]) =>
      console.log(
        cells
          .map((c, i) => c.padEnd(widths[i] ?? 10))
          .join(' ')
          .trimEnd(),
      );
    line(['phase', 'slots/client', 'B events', 'B p50 ms', 'B max ms', 'A in flight (max seen)']);
    for (const name of PHASES) {
      const uncapped = name === 'uncapped';
      if (!['quiet', 'noisy', 'uncapped'].includes(name)) throw new Error(`unknown phase ${name}`);
      const phaseCtx = uncapped
        ? { ...ctx, config: { ...config, WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: config.WEBHOOK_CONCURRENCY } }
        : ctx;
      const result = await run(name, phaseCtx, uncapped ? UNCAPPED_SAMPLES : SAMPLES, name !== 'quiet');
      if (!uncapped) lost += result.lost;
      const label = {
        quiet: 'quiet (B alone)',
        noisy: 'A hanging',
        uncapped: 'A hanging, one client may take every slot',
      }[name] as string;
      line([
        label,
        String(result.slots),
        result.lost ? `${result.latencies.length} (${result.lost} lost)` : String(result.latencies.length),
        median(result.latencies).toFixed(0),
        Math.max(0, ...result.latencies).toFixed(0),
        name === 'quiet' ? '-' : `${result.aInFlight} (${result.aMaxInFlight})`,
      ]);
    }
  } finally {
    child.disconnect();
    await db.close();
  }
  if (lost > 0) {
    console.error(`${lost} of B's events did not arrive within ${ARRIVAL_LIMIT_MS / 1000} s`);
    process.exit(1);
  }
  process.exit(0);
};

if (process.env.BENCH_NEIGHBOUR_RECEIVERS === '1') receivers();
else await coordinate();
