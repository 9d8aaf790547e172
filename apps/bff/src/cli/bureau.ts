import { randomBytes } from 'node:crypto';
import { startBureauServer } from '../bureau/http/server.ts';
import { SandboxBureau } from '../bureau/sandbox/sandbox-bureau.ts';
import { SandboxTriggerLog } from '../bureau/sandbox/trigger-log.ts';
import { ZConfig } from '../config.ts';
import { systemClock } from '../lib/clock.ts';

/** How long answer lines wait to leave together: on a busy bureau one write per call costs more than building a file. */
const ANSWER_LOG_FLUSH_MS = 50;

const answerLog = () => {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending) process.stdout.write(pending);
    pending = '';
  };
  const line = (text: string) => {
    pending += `${text}\n`;
    timer ??= setTimeout(flush, ANSWER_LOG_FLUSH_MS);
  };
  return { line, flush };
};

/**
 * `pnpm bureau`: the sandbox's deterministic bureau as a separate HTTP service speaking the bureau JSON
 * contract, so a production-mode instance (APP_ENV=production, which never uses synthetic data in-process)
 * can be run end to end on one machine with BUREAU_URL pointing here.
 */
const main = async () => {
  const answers = answerLog();
  const settings = ZConfig.pick({ BUREAU_PORT: true, BUREAU_API_KEY: true }).safeParse(process.env);
  if (!settings.success) throw new Error(settings.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const apiKey = settings.data.BUREAU_API_KEY ?? `bk_sandbox_${randomBytes(18).toString('base64url')}`;
  const server = await startBureauServer({
    // Real time: the feed reports each monitored file's changes on the day they happen.
    provider: new SandboxBureau({ triggerLog: new SandboxTriggerLog(() => systemClock.now()) }),
    apiKey,
    port: settings.data.BUREAU_PORT,
    // One line per call, never its body: the body is a person's identity.
    onAnswer: ({ path, status, ms, files }) => answers.line(`POST ${path} ${status} ${ms} ms${files ? ` (${files} files)` : ''}`),
  });
  process.stdout.write(
    [
      'Sandbox bureau (deterministic synthetic files, the bureau JSON contract) is running.',
      `  URL:      ${server.url}`,
      `  Triggers: POST ${server.url}/v1/triggers (monitored files' changes, read with a cursor)`,
      `  API key:  ${apiKey}${settings.data.BUREAU_API_KEY ? '   (from BUREAU_API_KEY)' : '   (new at every start; set BUREAU_API_KEY to keep one)'}`,
      '',
      'Point a production-mode instance at it:',
      `  APP_ENV=production BUREAU_URL=${server.url} BUREAU_API_KEY=${apiKey} \\`,
      '  DATABASE_URL=postgres://… TOKEN_SIGNING_KEY=… DATA_ENCRYPTION_KEY=… pnpm start',
      '',
    ].join('\n'),
  );
  const stop = () =>
    void server.close().then(() => {
      answers.flush();
      process.exit(0);
    });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

main().catch((error: unknown) => {
  process.stderr.write(`Could not start the sandbox bureau: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
