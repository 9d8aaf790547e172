import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDemoServer } from '@credit/demo';
import type { Db } from '../../apps/bff/src/db/db.ts';
import { ALL_SCOPES, startAppOn, type TestApp, type TestClient } from '../../apps/bff/test/helpers/in-process-app.ts';
import { assertBuilt } from './built-files.ts';

export type { TestApp, TestClient };

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The real API in this process, on 127.0.0.1, over `db` and a clock the test moves.
 * It serves the built widget at /widget and the loader at /embed.js.
 */
export const startApi = async (db: Db): Promise<TestApp> => {
  assertBuilt();
  // The product's calendar months (no fixed interval), as the demo's advances and a partner's sandbox run them.
  return startAppOn(db, { config: { MONITORING_INTERVAL: '' } });
};

export interface Partner {
  client: TestClient;
  /** An access token with every scope (admin included, for the sandbox helpers). */
  accessToken: string;
}

/**
 * A partner whose pages may embed the widget only from `embedOrigins` (nothing else on this API allows more), named
 * `name` when given (a sandbox client's sample offers carry its name).
 */
export const createPartner = async (app: TestApp, embedOrigins: string[], name?: string): Promise<Partner> => {
  const client = await app.createClient({ embedOrigins, scopes: ALL_SCOPES, ...(name ? { name } : {}) });
  return { client, accessToken: await app.token(client) };
};

/**
 * The demo bank on `localhost`, so its origin differs from the widget's (127.0.0.1) in host and port,
 * as a real partner's site differs from the API's.
 */
export const startDemo = async (app: TestApp, partner: Partner): Promise<RunningServer> =>
  startDemoServer({
    host: 'localhost',
    port: 0,
    apiUrl: app.url,
    clientId: partner.client.id,
    clientSecret: partner.client.secret,
  });

/** A page of our own (one HTML document at every path) on `host`, for origins the demo does not cover. */
export const servePage = (host: 'localhost' | '127.0.0.1', html: (url: URL) => string): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html(new URL(req.url ?? '/', `http://${req.headers.host}`)));
    });
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
