import type { Config } from '../config.ts';

/**
 * The API's address as browsers and partners reach it, for links the API hands out (the sandbox's Apply
 * page). `PUBLIC_URL` when set (behind a proxy or TLS terminator it must be); otherwise where this instance
 * listens: `HOST` (a wildcard address reads as `localhost`) and `PORT`, https when it serves TLS itself.
 * With `PORT=0` the port is known only once listening: the start command then fills `PUBLIC_URL` in itself.
 */
export const publicBaseUrl = (config: Config): string => {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const scheme = config.TLS_CERT_FILE ? 'https' : 'http';
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
};
