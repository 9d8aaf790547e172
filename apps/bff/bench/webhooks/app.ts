/**
 * A bench process playing the product: `dispatch` runs the real webhook worker (startDispatcher, polling and
 * woken by NOTIFY as in production); `produce` creates the subscriptions and enrols users through the users
 * service, each enrolment committing one `user.enrolled` event. On PostgreSQL they are two processes on one
 * schema; on PGlite (one process's database) one process plays both.
 *
 * Env: BENCH_ROLES (dispatch,produce), BENCH_SRC (the src folder whose code runs: this tree or a baseline),
 * BENCH_SCHEMA (PostgreSQL schema), BENCH_CA_FILE, DATABASE_URL, WEBHOOK_* settings.
 * IPC in: { cmd: 'setup' | 'produce' | 'answers' | 'cpu' | 'stop', … }; every command is answered with one message.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

type Bootstrap = typeof import('../../src/bootstrap.ts');
type ConfigModule = typeof import('../../src/config.ts');
type PgModule = typeof import('../../src/db/postgres.ts');
type PgliteModule = typeof import('../../src/db/pglite.ts');
type LoggerModule = typeof import('../../src/logger.ts');
type ClockModule = typeof import('../../src/lib/clock.ts');
type ClientsModule = typeof import('../../src/modules/clients/service.ts');
type UsersModule = typeof import('../../src/modules/users/service.ts');
type WebhooksModule = typeof import('../../src/modules/webhooks/service.ts');
type DispatcherModule = typeof import('../../src/modules/webhooks/dispatcher.ts');

const src = path.resolve(process.env.BENCH_SRC ?? path.join(import.meta.dirname, '../../src'));
const load = <T>(file: string): Promise<T> => import(pathToFileURL(path.join(src, file)).href) as Promise<T>;
const roles = new Set((process.env.BENCH_ROLES ?? 'dispatch,produce').split(','));
const now = () => performance.timeOrigin + performance.now();

const main = async () => {
  const { buildContext } = await load<Bootstrap>('bootstrap.ts');
  const { loadConfig } = await load<ConfigModule>('config.ts');
  const { createLogger } = await load<LoggerModule>('logger.ts');
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    // The bench's receiver runs on this machine, as a developer's does with `pnpm start`.
    WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
    WEBHOOK_CA_FILE: process.env.BENCH_CA_FILE,
    WEBHOOK_POLL_INTERVAL_MS: process.env.WEBHOOK_POLL_INTERVAL_MS ?? '250',
  });
  const db = process.env.DATABASE_URL
    ? await (await load<PgModule>('db/postgres.ts')).openPostgres({
        connectionString: process.env.DATABASE_URL,
        schema: process.env.BENCH_SCHEMA,
      })
    : await (await load<PgliteModule>('db/pglite.ts')).openPglite();
  const ctx = await buildContext({ config, db, logger: createLogger('silent') });
  const dispatcher = roles.has('dispatch')
    ? (await load<DispatcherModule>('modules/webhooks/dispatcher.ts')).startDispatcher(ctx)
    : undefined;
  const { systemClock } = await load<ClockModule>('lib/clock.ts');
  const { createClient } = await load<ClientsModule>('modules/clients/service.ts');
  const { enrollUser } = await load<UsersModule>('modules/users/service.ts');
  const { createWebhook } = await load<WebhooksModule>('modules/webhooks/service.ts');
  const callerOf = (clientId: string) => ({ clientId, principal: { kind: 'client' } }) as never;

  process.on('message', async (message: { cmd: string; [key: string]: unknown }) => {
    if (message.cmd === 'setup') {
      const { client } = await createClient(db, systemClock, config.APP_ENV, {
        name: `Bench ${message.phase}`,
        contactEmail: 'ops@bank.test',
      });
      for (let s = 0; s < Number(message.subscriptions); s++) {
        await createWebhook(ctx, callerOf(client.id), {
          url: `${message.receiverUrl}/${message.phase}/s${s}`,
          events: ['user.enrolled'],
          secret: 'whsec_bench_0123456789',
        });
      }
      process.send?.({ clientId: client.id });
    }
    if (message.cmd === 'produce') {
      const rate = message.rate as number | undefined;
      const seconds = message.seconds as number;
      const caller = callerOf(message.clientId as string);
      const users: string[] = [];
      const times: number[] = [];
      const started = performance.now();
      const deadline = started + seconds * 1000;
      const total = rate ? Math.round(rate * seconds) : Number.POSITIVE_INFINITY;
      let next = 0;
      const producer = async () => {
        for (;;) {
          const i = next++;
          if (i >= total) return;
          if (rate) {
            const wait = started + (i * 1000) / rate - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          } else if (performance.now() >= deadline) return;
          const user = await enrollUser(
            ctx,
            caller,
            {
              externalUserId: `${message.phase}-${i}`,
              email: `bench${i}@example.test`,
              firstName: 'Bench',
              lastName: 'User',
              ssn: '1234',
              dateOfBirth: '1985-04-12',
              address: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
            },
            { ip: undefined, userAgent: undefined, requestId: undefined },
          );
          users.push(user.userId);
          times.push(now());
        }
      };
      await Promise.all(Array.from({ length: Number(message.producers) }, producer));
      process.send?.({ users, times, seconds: (performance.now() - started) / 1000 });
    }
    if (message.cmd === 'answers') {
      // How long the receiver took to answer, as the dispatcher measured it: tells a slow receiver from a slow worker.
      const { rows } = await db.query<{ p50: number | null; p99: number | null }>(
        `select percentile_cont(0.5) within group (order by a.response_time_ms) as p50,
                percentile_cont(0.99) within group (order by a.response_time_ms) as p99
         from webhook_attempts a join webhooks w on w.id = a.webhook_id where w.client_id = $1`,
        [message.clientId],
      );
      process.send?.({ p50: Number(rows[0]?.p50 ?? 0), p99: Number(rows[0]?.p99 ?? 0) });
    }
    if (message.cmd === 'cpu') {
      const used = process.cpuUsage();
      process.send?.({ ms: (used.user + used.system) / 1000 });
    }
    if (message.cmd === 'stop') {
      await dispatcher?.stop();
      await db.close();
      process.send?.({ stopped: true });
      process.exit(0);
    }
  });
  process.send?.({ ready: true });
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
