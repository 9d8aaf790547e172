import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * Paths that could carry a secret or personal data if a log call ever included them. The request
 * serializer below logs no headers and no bodies in the first place; this is the second line.
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

export const httpSerializers = {
  // Method and path only: headers carry credentials and query strings can carry e-mail addresses.
  req: (req: { method?: string; url?: string; id?: string }) => ({
    id: req.id,
    method: req.method,
    path: req.url?.split('?')[0],
  }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};

export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      base: { service: 'credit-bff' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: pino.stdSerializers.err, ...httpSerializers },
    },
    destination,
  );
