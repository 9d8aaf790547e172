import { createApp } from './app.ts';
import { startBanner } from './banner.ts';
import { buildContext, connectRedis } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { createLogger } from './logger.ts';
import { ensureBootstrapClient } from './modules/clients/service.ts';
import { listen } from './server.ts';
import { startDemo } from './start-demo.ts';
import { startWorker } from './worker.ts';

const main = async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const db = await openDatabase(config);
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger) : undefined;
  const ctx = await buildContext({ config, db, logger, redis });

  const outcome =
    config.APP_ENV === 'sandbox'
      ? await ensureBootstrapClient(db, ctx.clock, {
          id: config.BOOTSTRAP_CLIENT_ID,
          secret: config.BOOTSTRAP_CLIENT_SECRET,
          email: config.BOOTSTRAP_CLIENT_EMAIL,
          embedOrigins: config.BOOTSTRAP_EMBED_ORIGINS?.split(',').map((o) => o.trim()),
        })
      : undefined;

  const server = config.ROLE === 'worker' ? undefined : await listen(createApp(ctx), config);
  // With PORT=0 the port is known only now; links the API hands out (lib/public-url.ts) must carry it.
  if (server) config.PUBLIC_URL ??= server.url;
  const worker = config.ROLE === 'api' ? undefined : startWorker(ctx);
  const demo = server && config.APP_ENV === 'sandbox' ? await startDemo(ctx, server.url) : undefined;
  process.stdout.write(`${startBanner({ url: server?.url, outcome, role: config.ROLE, env: config.APP_ENV, demo })}\n`);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await demo?.close();
    await worker?.stop();
    await server?.close();
    redis?.disconnect();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
};

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
