/**
 * bench:webhooks' product processes: `dispatch` runs the real webhook worker (startDispatcher, polling and woken by
 * NOTIFY as in production); `produce` creates the subscriptions and enrols users through the users service, each
 * enrolment committing one `user.enrolled` event. On PostgreSQL two processes on one schema (BENCH_SCHEMA); on PGlite
 * (one process's database) one process plays both. Env: BENCH_ROLES, BENCH_SCHEMA, BENCH_CA_FILE, DATABASE_URL,
 * WEBHOOK_* settings. IPC in: { cmd: 'setup' | 'produce' | 'cpu' | 'stop', … }, each answered with one message.
 */
import { buildContext } from '../../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../../apps/bff/src/config.ts';
import type { Caller } from '../../apps/bff/src/core/principal.ts';
import { openPglite } from '../../apps/bff/src/db/pglite.ts';
import { openPostgres } from '../../apps/bff/src/db/postgres.ts';
import { createLogger } from '../../apps/bff/src/logger.ts';
import { createClient } from '../../apps/bff/src/modules/clients/service.ts';
import { enrollUser } from '../../apps/bff/src/modules/users/service.ts';
import { startDispatcher } from '../../apps/bff/src/modules/webhooks/dispatcher.ts';
import { createWebhook } from '../../apps/bff/src/modules/webhooks/service.ts';
import { enrolment } from '../common.ts';

const roles = (process.env.BENCH_ROLES ?? 'dispatch,produce').split(',');
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'silent',
  DATA_DIR: '/nonexistent',
  // The receiver runs on this machine, as a developer's does with `pnpm start`.
  WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
  WEBHOOK_CA_FILE: process.env.BENCH_CA_FILE,
  WEBHOOK_POLL_INTERVAL_MS: process.env.WEBHOOK_POLL_INTERVAL_MS ?? '250',
});
const db = process.env.DATABASE_URL
  ? await openPostgres({ connectionString: process.env.DATABASE_URL, schema: process.env.BENCH_SCHEMA })
  : await openPglite();
const ctx = await buildContext({ config, db, logger: createLogger('silent') });
const dispatcher = roles.includes('dispatch') ? startDispatcher(ctx) : undefined;
/** Each phase's client, as the services see a partner calling with an access token. */
const callers = new Map<string, Caller>();

type Command =
  | { cmd: 'setup'; phase: string; subscriptions: number; receiverUrl: string }
  | { cmd: 'produce'; clientId: string; phase: string; rate?: number; seconds: number; producers: number }
  | { cmd: 'cpu' | 'stop' };
process.on('message', async (message: Command) => {
  if (message.cmd === 'setup') {
    const { client } = await createClient(db, ctx.clock, config.APP_ENV, {
      name: `Bench ${message.phase}`,
      contactEmail: 'ops@bank.test',
    });
    const caller: Caller = { clientId: client.id, principal: { kind: 'access', client, scopes: ['write', 'webhooks'] } };
    callers.set(client.id, caller);
    for (let s = 0; s < message.subscriptions; s++) {
      const url = `${message.receiverUrl}/${message.phase}/s${s}`;
      await createWebhook(ctx, caller, { url, events: ['user.enrolled'], secret: 'whsec_bench_0123456789' });
    }
    process.send?.({ clientId: client.id });
  } else if (message.cmd === 'produce') {
    // Paced: enrolments evenly spaced at `rate`/s; unpaced: `producers` enrol back to back until the time is up.
    const { rate, seconds } = message;
    const commits = { users: [] as string[], times: [] as number[] };
    const started = performance.now();
    const total = rate ? Math.round(rate * seconds) : Number.POSITIVE_INFINITY;
    let next = 0;
    const producer = async () => {
      for (let i = next++; i < total; i = next++) {
        const wait = rate ? started + (i * 1000) / rate - performance.now() : 0;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!rate && performance.now() - started >= seconds * 1000) return;
        const origin = { ip: undefined, userAgent: undefined, requestId: undefined };
        const user = await enrollUser(ctx, callers.get(message.clientId) as Caller, enrolment(`${message.phase}-${i}`), origin);
        commits.users.push(user.userId);
        commits.times.push(performance.timeOrigin + performance.now());
      }
    };
    await Promise.all(Array.from({ length: message.producers }, producer));
    process.send?.(commits);
  } else if (message.cmd === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ ms: (user + system) / 1000 });
  } else {
    await dispatcher?.stop();
    await db.close();
    process.send?.({ stopped: true });
    process.exit(0);
  }
});
process.send?.({ ready: true });
