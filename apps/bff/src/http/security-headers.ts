import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** The API's policy: same-origin everything, inline styles for the reference page, never framed. */
const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      frameAncestors: ["'none'"],
      // Local sandboxes serve plain HTTP; upgrading would break the reference page's own assets.
      upgradeInsecureRequests: null,
    },
  },
};

/**
 * The headers helmet sets, captured once by running it against a recording response. None of them depends on
 * the request (no nonces), so every response gets the same set from one loop instead of helmet's chain of a
 * dozen middlewares.
 */
export const computeSecurityHeaders = (): [string, string][] => {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  } as unknown as ServerResponse;
  let failure: unknown;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return [...headers];
};

export const securityHeaders = () => {
  const headers = computeSecurityHeaders();
  return (res: ServerResponse): void => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
};
