/**
 * Embed origins are exact origins (`https://www.bank.example`) or an origin with `*` as its port
 * (`http://localhost:*`, handy in the sandbox). Hosts compare case-insensitively; paths never appear.
 */
const ORIGIN_PATTERN = /^(https?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}|\*))?$/;

const split = (origin: string) => {
  const match = ORIGIN_PATTERN.exec(origin.trim());
  if (!match) return undefined;
  const [, scheme = '', host = '', port] = match;
  const defaultPort = scheme === 'https' ? '443' : '80';
  return { scheme, host: host.toLowerCase(), port: port ?? defaultPort };
};

/** Whether `origin` (as a browser reports it) is one of `patterns`. */
export const originAllowed = (patterns: readonly string[], origin: string): boolean => {
  const candidate = split(origin);
  if (!candidate || candidate.port === '*') return false;
  return patterns.some((pattern) => {
    const allowed = split(pattern);
    return (
      allowed !== undefined &&
      allowed.scheme === candidate.scheme &&
      allowed.host === candidate.host &&
      (allowed.port === '*' || allowed.port === candidate.port)
    );
  });
};

/** Patterns a client may register; the rest are refused when the client is created or changed. */
export const invalidEmbedOrigins = (patterns: readonly string[]): string[] => patterns.filter((pattern) => !split(pattern));
