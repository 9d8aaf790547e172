import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * Paths that could carry a secret or personal data if a log call ever included them. The serializers below
 * log no headers and no bodies in the first place; this is the second line, on the few lines written outside
 * the access log (errors, warnings, start-up), where its per-line cost does not matter.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.ssn',
  '*.dateOfBirth',
  '*.client_secret',
  '*.secret',
  '*.access_token',
  '*.userToken',
  '*.password',
];

interface LoggedRequest {
  method?: string;
  url?: string;
  originalUrl?: string;
  id?: string;
  requestId?: string;
  correlationId?: string;
}

/** The URL up to its query string (every access-log line: a slice, not a split into an array). */
const pathOf = (url: string | undefined): string | undefined => {
  const query = url?.indexOf('?') ?? -1;
  return query < 0 ? url : url?.slice(0, query);
};

export const httpSerializers = {
  // Id, method and path only: headers carry credentials and query strings can carry e-mail addresses.
  req: (req: LoggedRequest) => ({
    id: req.requestId ?? req.id,
    // The caller's own X-Request-ID, so a partner's support ticket finds the line by either id.
    ...(req.correlationId ? { correlationId: req.correlationId } : {}),
    method: req.method,
    path: pathOf(req.originalUrl ?? req.url),
  }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};

export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      // The pid tells apart the processes of one instance (API_PROCESSES) writing to one stream.
      base: { service: 'credit-bff', pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: pino.stdSerializers.err, ...httpSerializers },
    },
    destination,
  );

/**
 * Standard output, written asynchronously in batches, so a log line never blocks its request and lines share system
 * calls; `flushSync()` writes what is buffered on shutdown (docs/decisions.md, "Logs"). Writes stay within what a pipe
 * writes atomically, so processes sharing one stdout never interleave mid-line.
 */
export const openLogDestination = () =>
  pino.destination({ dest: 1, sync: false, maxWrite: 4096, minLength: 3072, periodicFlush: 250 });
