#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ListenSetupError, listen } from './listen.ts';

/** `npx credit …`: the partner kit's command line, shipped as the `credit` bin of `@credit/sdk`. */

const USAGE = `Usage: credit listen --forward-to <url> [options]

Forwards your client's events to a receiver on this machine, signed as real webhook deliveries, so you can
build and test your webhook endpoint without a public URL, a certificate or a subscription.

  credit listen --forward-to http://localhost:4242/webhooks
  credit listen --forward-to localhost:4242/webhooks --events score.changed,alert.created

Options:
  --forward-to <url>      Where each event is POSTed (http:// or https://; "localhost:4242/path" means http).
  --events <a,b>          Only these event types (default: all). The others are skipped, not kept for later.
  --api <url>             The API (default: $CREDIT_API_URL, else http://localhost:3000, what \`pnpm start\` serves).
  --client-id <id>        Your API client (default: $CREDIT_CLIENT_ID). It needs the webhooks scope.
  --client-secret <s>     Its secret (default: $CREDIT_CLIENT_SECRET).
  --state <file>          Where the signing secret and the last event handled are kept
                          (default: $XDG_CONFIG_HOME/credit/listen-<client id>.json, else ~/.config/credit/…).
  -h, --help              This help.

The first run makes a signing secret (whsec_…), prints it and keeps it in the state file: verify deliveries with it,
e.g. new Webhook(secret).verify(body, headers) from the standardwebhooks package, or constructEvent from
@credit/sdk/webhooks. A later run resumes after the last event handled, so nothing is missed or forwarded twice;
the first one starts at the latest event. ^C saves the state and quits.`;

const fail = (message: string, code = 2): never => {
  process.stderr.write(`${message}\n`);
  process.exit(code);
};

const main = async (argv: string[]) => {
  const [command, ...rest] = argv;
  if (!command || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command !== 'listen') fail(`Unknown command "${command}".\n\n${USAGE}`);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        'forward-to': { type: 'string' },
        events: { type: 'string' },
        api: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        state: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const env = process.env;
  const forwardTo = values['forward-to'] as string | undefined;
  if (!forwardTo) return fail(`credit listen needs --forward-to <url>, e.g. --forward-to http://localhost:4242/webhooks`);
  const clientId = (values['client-id'] as string | undefined) ?? env.CREDIT_CLIENT_ID;
  const clientSecret = (values['client-secret'] as string | undefined) ?? env.CREDIT_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    return fail(
      `credit listen needs your API client: pass --client-id and --client-secret, or set CREDIT_CLIENT_ID and ` +
        'CREDIT_CLIENT_SECRET (`pnpm start` prints the export line; the client needs the webhooks scope).',
    );
  }
  const api = (values.api as string | undefined) ?? env.CREDIT_API_URL ?? env.CREDIT_API_BASE ?? 'http://localhost:3000';

  const stop = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    // A second ^C does not wait for a slow receiver to answer the delivery in flight.
    if (interrupts > 1) process.exit(130);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await listen({
      api,
      clientId,
      clientSecret,
      forwardTo,
      events: typeof values.events === 'string' ? values.events.split(',') : undefined,
      statePath: values.state as string | undefined,
      signal: stop.signal,
    });
  } catch (error) {
    if (error instanceof ListenSetupError) return fail(error.message, 1);
    return fail(`credit listen stopped: ${(error as Error).message}`, 1);
  }
  process.exit(0);
};

await main(process.argv.slice(2));
