import { readFileSync } from 'node:fs';
import http, { type RequestListener } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Plain HTTP by default (a proxy terminates TLS); HTTPS directly when TLS_CERT_FILE/TLS_KEY_FILE are set. */
export const listen = (app: RequestListener, config: Config): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const tls = config.TLS_CERT_FILE && config.TLS_KEY_FILE;
    const server = tls
      ? https.createServer(
          { cert: readFileSync(config.TLS_CERT_FILE as string), key: readFileSync(config.TLS_KEY_FILE as string) },
          app,
        )
      : http.createServer(app);
    // Above common proxy idle timeouts, so a proxy never reuses a socket we are closing.
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      const { port } = server.address() as AddressInfo;
      const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
      resolve({
        url: `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
