import cluster from 'node:cluster';
import { forkApiProcesses, reportListening } from './api-processes.ts';
import { createApp } from './app.ts';
import { startBanner } from './banner.ts';
import { buildContext, connectRedis } from './bootstrap.ts';
import { type Config, loadConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/open.ts';
import { createLogger, openLogDestination } from './logger.ts';
import { chainSpooledEntries } from './modules/audit/service.ts';
import { ensureBootstrapClient } from './modules/clients/service.ts';
import { createConsoleLink } from './modules/console/service.ts';
import { kitOffer } from './modules/kit/routes.ts';
import { listen } from './server.ts';
import { startDemo } from './start-demo.ts';
import { startWorker } from './worker.ts';

/** Runs `stop` once on SIGINT or SIGTERM (both may arrive: Ctrl-C reaches every process of the group). */
const onShutdownSignal = (stop: (signal: string) => Promise<void>) => {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void stop(signal);
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
};

/** One of API_PROCESSES: serves HTTP on the shared port, nothing else (the primary did start-up and runs the jobs). */
const runApiProcess = async (config: Config) => {
  const logs = openLogDestination();
  const logger = createLogger(config.LOG_LEVEL, logs);
  const db = await openDatabase(config);
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger, config.REDIS_TIMEOUT_MS) : undefined;
  const ctx = await buildContext({ config, db, logger, redis });
  const server = await listen(createApp(ctx), config);
  config.PUBLIC_URL ??= server.url;
  reportListening(server.url);
  const stop = async () => {
    await server.close();
    await chainSpoolAtShutdown(ctx);
    await ctx.bureau?.close?.();
    redis?.disconnect();
    await db.close();
    logs.flushSync();
    process.exit(0);
  };
  onShutdownSignal(stop);
  // The primary is gone (killed without passing on a signal): nothing hands this process connections any more.
  process.once('disconnect', () => void stop());
};

/**
 * What this process spooled for the audit trail and no pass chained yet joins its chain before the database closes,
 * so a stopped instance leaves an empty spool; if that fails, the next start (or the worker) chains it.
 */
const chainSpoolAtShutdown = async (ctx: AppContext) => {
  try {
    await chainSpooledEntries(ctx);
  } catch (error) {
    ctx.logger.warn({ err: error }, 'audit chaining at shutdown failed; the next start chains the spool');
  }
};

/**
 * A console link for the client the banner's credentials are for: the demo bank's when it runs (it has customers to
 * look at), else the bootstrap client's. Signed in as the local operator, as an editor.
 */
const sandboxConsoleLink = async (
  ctx: AppContext,
  outcome: Awaited<ReturnType<typeof ensureBootstrapClient>> | undefined,
  demo: Awaited<ReturnType<typeof startDemo>> | undefined,
) => {
  const client = demo
    ? { id: demo.clientId, whose: 'Maple Bank, the demo' }
    : outcome && { id: outcome.client.id, whose: 'your client' };
  if (!client) return undefined;
  const staff = { id: 'local-operator', email: outcome?.client.contactEmail ?? 'operator@localhost.test' };
  const link = await createConsoleLink(ctx, client.id, { staff, role: 'editor' }, { kind: 'operator', id: 'start' });
  return { url: link.url, clientId: client.id, whose: client.whose };
};

const main = async () => {
  const config = loadConfig();
  if (cluster.isWorker) return runApiProcess(config);
  const logs = openLogDestination();
  const logger = createLogger(config.LOG_LEVEL, logs);
  const db = await openDatabase(config);
  const redis = config.REDIS_URL
    ? connectRedis(config.REDIS_URL, logger, config.REDIS_TIMEOUT_MS, { autoPipelining: config.ROLE === 'worker' })
    : undefined;
  const ctx = await buildContext({ config, db, logger, redis });

  const outcome =
    config.APP_ENV === 'sandbox'
      ? await ensureBootstrapClient(db, ctx.clock, {
          id: config.BOOTSTRAP_CLIENT_ID,
          secret: config.BOOTSTRAP_CLIENT_SECRET,
          email: config.BOOTSTRAP_CLIENT_EMAIL,
          name: config.BOOTSTRAP_CLIENT_NAME,
          embedOrigins: config.BOOTSTRAP_EMBED_ORIGINS?.split(',').map((o) => o.trim()),
        })
      : undefined;

  const server =
    config.ROLE === 'worker'
      ? undefined
      : config.API_PROCESSES > 1
        ? await forkApiProcesses(config.API_PROCESSES, logger)
        : await listen(createApp(ctx), config);
  // With PORT=0 the port is known only now; links the API hands out (lib/public-url.ts) must carry it.
  if (server && config.APP_ENV === 'production' && !config.PUBLIC_URL) {
    logger.warn({ url: server.url }, 'PUBLIC_URL is not set: error docUrls and other links name where this instance listens');
  }
  if (server) config.PUBLIC_URL ??= server.url;
  // The webhook worker and housekeeping run here, in this one process, never in each of API_PROCESSES.
  const worker = config.ROLE === 'api' ? undefined : startWorker(ctx);
  const demo = server && config.APP_ENV === 'sandbox' ? await startDemo(ctx, server.url) : undefined;
  const kit = server ? kitOffer(config) : undefined;
  const consoleLink = server && config.APP_ENV === 'sandbox' ? await sandboxConsoleLink(ctx, outcome, demo) : undefined;
  process.stdout.write(
    `${startBanner({ url: server?.url, outcome, role: config.ROLE, env: config.APP_ENV, demo, kit, console: consoleLink })}\n`,
  );

  onShutdownSignal(async (signal) => {
    logger.info({ signal }, 'shutting down');
    await demo?.close();
    await worker?.stop();
    await server?.close();
    await chainSpoolAtShutdown(ctx);
    // After the server and the worker, so no request or pull is still using the bureau's connections.
    await ctx.bureau?.close?.();
    redis?.disconnect();
    await db.close();
    logs.flushSync();
    process.exit(0);
  });
};

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
