import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from './servers.ts';

export interface RecordingProxy extends RunningServer {
  /** `METHOD /path?query` of every request the browser sent through the proxy, in order. */
  readonly requests: string[];
}

/**
 * A pass-through in front of the API that records what reached it. Chromium fetches `/favicon.ico` from
 * its browser process, where Playwright's request events never see it; the server side always does.
 */
export const startRecordingProxy = (targetUrl: string): Promise<RecordingProxy> => {
  const target = new URL(targetUrl);
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, target.hostname, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${target.hostname}:${port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
};
