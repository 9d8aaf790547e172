import { createApp } from './app.ts';
import { buildContext, connectRedis } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { createLogger } from './logger.ts';
import { type BootstrapOutcome, ensureBootstrapClient } from './modules/clients/service.ts';
import { listen } from './server.ts';
import { type RunningDemo, startDemo } from './start-demo.ts';
import { startWorker } from './worker.ts';

const banner = (
  url: string | undefined,
  outcome: BootstrapOutcome | undefined,
  role: string,
  env: string,
  demo: RunningDemo | undefined,
) => {
  const lines = [`Credit API (${env}, role ${role}) is running.`];
  if (demo) lines.push(`  Demo bank:     ${demo.url}   (open it: a partner page embedding the widget)`);
  if (url) {
    lines.push(
      `  API:           ${url}/v1`,
      `  Reference:     ${url}/docs`,
      `  OpenAPI:       ${url}/openapi.json`,
      `  Widget loader: ${url}/embed.js`,
    );
  }
  if (outcome) {
    lines.push(`  Client id:     ${outcome.client.id}`);
    if (outcome.kind === 'generated') lines.push(`  Client secret: ${outcome.secret}   (shown once; keep it)`);
    else if (outcome.kind === 'configured') lines.push('  Client secret: the BOOTSTRAP_CLIENT_SECRET you set');
    else lines.push(`  Client secret: shown when it was created; new one: pnpm clients rotate-secret ${outcome.client.id}`);
    if (url) {
      lines.push(
        '  Try it:',
        `    curl -s -u '${outcome.client.id}:<secret>' -d grant_type=client_credentials ${url}/oauth/token`,
      );
    }
  }
  return lines.join('\n');
};

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
  const worker = config.ROLE === 'api' ? undefined : startWorker(ctx);
  const demo = server && config.APP_ENV === 'sandbox' ? await startDemo(ctx, server.url) : undefined;
  process.stdout.write(`${banner(server?.url, outcome, config.ROLE, config.APP_ENV, demo)}\n`);

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
