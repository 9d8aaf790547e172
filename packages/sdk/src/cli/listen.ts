import { EVENT_TYPES, type TEventEnvelope } from '@credit/contract';
import { CreditClient } from '../client.ts';
import { CreditApiError, CreditConnectionError, CreditOAuthError } from '../errors.ts';
import { signWebhookPayload } from '../sign-webhook.ts';
import { forward } from './forward.ts';
import { defaultStatePath, type ListenState, newSigningSecret, readState, writeState } from './state.ts';

/** The API's longest `wait`: an idle listener makes 3 requests a minute. */
const WAIT_SECONDS = 20;
/** Empty answers come at least this far apart, even from a server that answers at once: at most 30 requests a minute. */
const MIN_IDLE_POLL_MS = 2_000;
/** Waits after the API could not be reached: 1 s, 2 s, 4 s … up to 30 s. */
const MAX_RETRY_DELAY_MS = 30_000;
const PAGE_SIZE = 100;

export interface ListenOptions {
  /** The API, e.g. `http://localhost:3000` or the sandbox's address. */
  api: string;
  clientId: string;
  clientSecret: string;
  /** Where each event is posted, e.g. `http://localhost:4242/webhooks`. */
  forwardTo: string;
  /** Only these event types are forwarded (the others are skipped, and the position still moves past them). */
  events?: readonly string[] | undefined;
  /** The state file; `$XDG_CONFIG_HOME/credit/listen-<clientId>.json` by default. */
  statePath?: string | undefined;
  /** Ends listening: the delivery in flight finishes, the state is saved, the promise resolves. */
  signal?: AbortSignal | undefined;
  /** Where lines go (stdout by default). */
  print?: ((line: string) => void) | undefined;
  /** Environment for the default state path (XDG_CONFIG_HOME). */
  env?: Record<string, string | undefined> | undefined;
  /** The client to list events with (tests); one signed in with `clientId` and `clientSecret` by default. */
  client?: CreditClient | undefined;
}

/** A refusal a person must fix (credentials, scope, options): listening stops with this message. */
export class ListenSetupError extends Error {
  override name = 'ListenSetupError';
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `2026-12-02 10:00:01`, local time, as a terminal's reader expects. */
const stamp = (at = new Date()) =>
  `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;

/** `localhost:4242/webhooks` as Stripe's CLI takes it, or a full http(s) URL. */
export const forwardTarget = (text: string): URL => {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ListenSetupError(`--forward-to ${text} is not a URL: give one such as http://localhost:4242/webhooks`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ListenSetupError(`--forward-to ${text}: only http:// and https:// URLs can receive events`);
  }
  return url;
};

/** `--events a,b`: known event types, or a message naming the unknown one and the known ones. */
export const eventFilter = (events: readonly string[] | undefined): Set<string> | undefined => {
  const wanted = (events ?? []).map((type) => type.trim()).filter(Boolean);
  if (wanted.length === 0 || wanted.includes('*')) return undefined;
  const unknown = wanted.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown) throw new ListenSetupError(`--events: ${unknown} is not an event type; the types are ${EVENT_TYPES.join(', ')}`);
  return new Set(wanted);
};

const describeRefusal = (error: unknown, api: string): string | undefined => {
  if (error instanceof CreditOAuthError) {
    if (error.code === 'invalid_scope') {
      return `The API at ${api} will not give this client the webhooks scope listen needs (${error.message}).`;
    }
    return (
      `The API at ${api} refused the client credentials (${error.code}: ${error.message}). Check --client-id and ` +
      '--client-secret (or CREDIT_CLIENT_ID and CREDIT_CLIENT_SECRET): they must be a client of this API.'
    );
  }
  if (error instanceof CreditApiError && (error.status === 401 || error.status === 403)) {
    return `The API at ${api} refused to list this client's events (${error.code}: ${error.message}).`;
  }
  return undefined;
};

const isUnknownPosition = (error: unknown) =>
  error instanceof CreditApiError &&
  error.code === 'VALIDATION_ERROR' &&
  error.details.some((detail) => detail.field === 'query.after');

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * `credit listen`: follows the client's events through `GET /v1/events` (a long poll in the order they were recorded,
 * from the last one handled), signs each exactly as a delivery with a local secret kept in the state file, posts it
 * to `forwardTo` and prints one line per event and one per answer. A receiver's failure is printed and listening goes
 * on (no retries: the next event follows). Resolves when `signal` aborts, with the state saved; rejects with a
 * `ListenSetupError` when the credentials or options are refused.
 */
export const listen = async (options: ListenOptions): Promise<void> => {
  const print = options.print ?? ((line: string) => console.log(line));
  const target = forwardTarget(options.forwardTo);
  const only = eventFilter(options.events);
  const api = options.api.replace(/\/+$/, '');
  const statePath = options.statePath ?? defaultStatePath(options.clientId, options.env);
  const client =
    options.client ??
    new CreditClient({
      baseUrl: api,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: 'webhooks',
      // Forward whatever the API sends, even an event type newer than this SDK.
      validateResponses: false,
    });
  const { signal } = options;

  const stored = await readState(statePath);
  const sameSource = stored?.api === api && stored.clientId === options.clientId;
  const state: ListenState = {
    version: 1,
    api,
    clientId: options.clientId,
    secret: stored?.secret ?? newSigningSecret(),
    ...(sameSource && stored.after !== undefined ? { after: stored.after } : {}),
  };

  const latestEvent = async (): Promise<string | null> => {
    const page = await client.call('listEvents', { query: { sort: '-recorded', limit: 1 }, signal });
    return page.data[0]?.id ?? null;
  };

  try {
    // The first call signs in, so refused credentials are said before "Ready".
    if (state.after === undefined) state.after = await latestEvent();
    else await client.accessToken();
  } catch (error) {
    const refusal = describeRefusal(error, api);
    if (refusal) throw new ListenSetupError(refusal);
    if (signal?.aborted) return;
    if (error instanceof CreditConnectionError) {
      throw new ListenSetupError(
        `Cannot reach the API at ${api} (${(error.cause as Error | undefined)?.message ?? error.message}): is it running? ` +
          'Give its address with --api or CREDIT_API_URL.',
      );
    }
    throw error;
  }
  await writeState(statePath, state);
  const what = only ? [...only].join(', ') : 'all events';
  print(`Ready. Your webhook signing secret is ${state.secret} (^C to quit)`);
  print(`Forwarding ${what} of ${options.clientId} from ${api} to ${target.href} (state: ${statePath})`);

  const deliver = async (event: TEventEnvelope) => {
    const body = JSON.stringify(event);
    print(`${stamp()}  --> ${event.type} [${event.id}]`);
    const outcome = await forward(target, body, signWebhookPayload({ payload: body, secret: state.secret, eventId: event.id }));
    const where = `POST ${target.href} [${event.id}]`;
    print(
      'status' in outcome ? `${stamp()}  <-- [${outcome.status}] ${where}` : `${stamp()}  <-- [ERR] ${where} ${outcome.error}`,
    );
  };

  let failures = 0;
  while (!signal?.aborted) {
    const started = Date.now();
    let page: { data: TEventEnvelope[]; pagination: { hasMore: boolean } };
    try {
      const query = state.after
        ? { after: state.after, wait: WAIT_SECONDS, limit: PAGE_SIZE }
        : { sort: 'recorded' as const, wait: WAIT_SECONDS, limit: PAGE_SIZE };
      page = await client.call('listEvents', { query, signal });
      failures = 0;
    } catch (error) {
      if (signal?.aborted) break;
      const refusal = describeRefusal(error, api);
      if (refusal) throw new ListenSetupError(refusal);
      if (isUnknownPosition(error)) {
        // Deleted with age (events are kept 30 days): what came after it is listed from its oldest.
        print(`${stamp()}  The last event handled, ${state.after}, is no longer kept: continuing from the oldest listed.`);
        state.after = null;
        continue;
      }
      const delay = Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** failures);
      failures += 1;
      print(`${stamp()}  Cannot list events (${(error as Error).message}); trying again in ${Math.round(delay / 1000)} s`);
      await sleep(delay, signal);
      continue;
    }
    for (const event of page.data) {
      if (signal?.aborted) break;
      if (!only || only.has(event.type)) await deliver(event);
      state.after = event.id;
      await writeState(statePath, state);
    }
    if (page.data.length === 0) await sleep(MIN_IDLE_POLL_MS - (Date.now() - started), signal);
  }
  await writeState(statePath, state);
};
