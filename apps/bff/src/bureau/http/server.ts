import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import type { BureauProvider, CreditSubject } from '../provider.ts';
import { SimulationActionError } from '../simulation.ts';
import {
  BUREAU_API_KEY_HEADER,
  BUREAU_PATHS,
  MAX_BUREAU_BATCH_PULLS,
  type TBureauFileRequest,
  ZBureauCreditFilesRequest,
  ZBureauFileRequest,
  ZBureauSimulationRequest,
  ZBureauStopTriggersRequest,
  ZBureauTriggerRequest,
} from './contract.ts';

/** A request body is one identity (and a simulation's ten actions at most): a few hundred bytes; a batch, one per pull. */
const MAX_REQUEST_BYTES = 16 * 1024;
const MAX_BATCH_REQUEST_BYTES = MAX_BUREAU_BATCH_PULLS * MAX_REQUEST_BYTES;

const SERVED_PATHS: ReadonlySet<string> = new Set(Object.values(BUREAU_PATHS));

const digest = (value: string) => createHash('sha256').update(value).digest();

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const fail = (res: ServerResponse, status: number, code: string, message: string) =>
  send(res, status, { error: { code, message } });

const readBody = (req: IncomingMessage, limit: number): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export interface BureauHandlerOptions {
  provider: BureauProvider;
  /** Required on every call when set; leave unset only behind mutual TLS. */
  apiKey?: string;
  /** Called once per answered call, without the body: for the CLI's request log (`files`: a batch's pulls). */
  onAnswer?: (line: { path: string; status: number; ms: number; files?: number }) => void;
}

/** A pull as the provider takes it: who, as of when, and its billing key. */
const pullOf = (request: TBureauFileRequest) => ({
  subject: { userId: request.reference ?? '', ...request.subject } satisfies CreditSubject,
  asOf: new Date(request.asOf),
  options: { pullId: request.pullId, monitor: request.monitor },
});

/**
 * Serves a BureauProvider over the bureau JSON contract (./contract.ts): the sandbox bureau behind
 * `pnpm bureau`, or any provider a test wants reachable over HTTP.
 */
export const bureauRequestHandler = ({ provider, apiKey, onAnswer }: BureauHandlerOptions): RequestListener => {
  const expectedKey = apiKey ? digest(apiKey) : undefined;
  return async (req, res) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let files: number | undefined;
    res.on('finish', () =>
      onAnswer?.({ path, status: res.statusCode, ms: Math.round(performance.now() - started), ...(files ? { files } : {}) }),
    );
    try {
      if (!SERVED_PATHS.has(path)) return fail(res, 404, 'not_found', `POST ${[...SERVED_PATHS].join(', ')}`);
      if (req.method !== 'POST') return fail(res, 405, 'method_not_allowed', 'POST only');
      const presented = req.headers[BUREAU_API_KEY_HEADER];
      if (expectedKey && (typeof presented !== 'string' || !timingSafeEqual(digest(presented), expectedKey))) {
        return fail(res, 401, 'unauthorized', `Missing or wrong ${BUREAU_API_KEY_HEADER} header`);
      }
      const limit = path === BUREAU_PATHS.creditFiles ? MAX_BATCH_REQUEST_BYTES : MAX_REQUEST_BYTES;
      const text = await readBody(req, limit);
      if (text === undefined) return fail(res, 413, 'too_large', `The body is larger than ${limit} bytes`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return fail(res, 400, 'invalid_request', 'The body is not JSON');
      }
      const invalid = (error: z.ZodError) => {
        const fields = error.issues.map((issue) => issue.path.join('.') || '(body)');
        return fail(res, 400, 'invalid_request', `Invalid fields: ${[...new Set(fields)].join(', ')}`);
      };
      if (path === BUREAU_PATHS.triggers || path === BUREAU_PATHS.stopTriggers) {
        const feed = provider.triggers;
        if (!feed) return fail(res, 404, 'not_found', 'This bureau has no trigger feed');
        if (path === BUREAU_PATHS.stopTriggers) {
          const stop = ZBureauStopTriggersRequest.safeParse(json);
          if (!stop.success) return invalid(stop.error);
          await feed.stop(stop.data.references);
          return send(res, 200, { stopped: stop.data.references.length });
        }
        const read = ZBureauTriggerRequest.safeParse(json);
        if (!read.success) return invalid(read.error);
        try {
          return send(res, 200, await feed.read(read.data.after, read.data.limit));
        } catch (error) {
          if (error instanceof RangeError) return fail(res, 400, 'invalid_request', 'Invalid fields: after');
          throw error;
        }
      }
      if (path === BUREAU_PATHS.creditFiles) {
        const batch = ZBureauCreditFilesRequest.safeParse(json);
        if (!batch.success) return invalid(batch.error);
        // Each pull on its own, naming the pull it answers: a file the bureau cannot build fails alone, as its single
        // request would with a 5xx.
        const results = await Promise.all(
          batch.data.pulls.map(async (request) => {
            const { subject, asOf, options } = pullOf(request);
            const answered = { reference: request.reference, pullId: request.pullId };
            try {
              return { ...answered, ...(await provider.pullCreditFile(subject, asOf, options)) };
            } catch {
              return { ...answered, status: 'failed' as const };
            }
          }),
        );
        files = results.filter((result) => result.status !== 'failed').length;
        return send(res, 200, { results });
      }
      const parsed = (path === BUREAU_PATHS.scoreSimulation ? ZBureauSimulationRequest : ZBureauFileRequest).safeParse(json);
      if (!parsed.success) return invalid(parsed.error);
      const subject: CreditSubject = { userId: parsed.data.reference ?? '', ...parsed.data.subject };
      const asOf = new Date(parsed.data.asOf);
      if ('actions' in parsed.data) return send(res, 200, await provider.simulateScore(subject, asOf, parsed.data.actions));
      if (path === BUREAU_PATHS.creditFile) {
        const options = { pullId: parsed.data.pullId, monitor: 'monitor' in parsed.data ? parsed.data.monitor : undefined };
        return send(res, 200, await provider.pullCreditFile(subject, asOf, options));
      }
      return send(res, 200, { file: await provider.pullIdentityFile(subject, asOf) });
    } catch (error) {
      if (res.headersSent) return;
      // An action that does not fit the file (an account it does not have) is the request's fault: a 422, not retried.
      if (error instanceof SimulationActionError) {
        return fail(res, 422, 'invalid_action', `actions.${error.index}.${error.field}: ${error.message}`);
      }
      fail(res, 500, 'internal', 'The bureau failed to build the file');
    }
  };
};

export interface BureauServerOptions extends BureauHandlerOptions {
  host?: string;
  port?: number;
  /** Serve HTTPS and require a client certificate signed by `ca` (mutual TLS). */
  tls?: { cert: string; key: string; ca: string };
}

export interface RunningBureauServer {
  url: string;
  close(): Promise<void>;
}

export const startBureauServer = async ({
  host = '127.0.0.1',
  port = 0,
  tls,
  ...handler
}: BureauServerOptions): Promise<RunningBureauServer> => {
  const listener = bureauRequestHandler(handler);
  const server = tls
    ? https.createServer({ ...tls, requestCert: true, rejectUnauthorized: true }, listener)
    : http.createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `${tls ? 'https' : 'http'}://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
