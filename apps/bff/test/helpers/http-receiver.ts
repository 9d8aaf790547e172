import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PlainDelivery {
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received, as text. */
  raw: string;
  path: string;
}

export interface PlainReceiver {
  /** `http://localhost:<port>`: what a developer's local receiver looks like. */
  origin: string;
  port: number;
  received: PlainDelivery[];
  /** Status to answer with (default 200). */
  status: number;
  /** Holds each answer this long (a slow receiver). */
  delayMs: number;
  close(): Promise<void>;
}

/** A plain-HTTP receiver on 127.0.0.1, as a partner runs one on their laptop (no certificate). */
export const startPlainReceiver = async (): Promise<PlainReceiver> => {
  const receiver: PlainReceiver = { origin: '', port: 0, received: [], status: 200, delayMs: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' });
      const answer = () => res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.origin = `http://localhost:${receiver.port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
};

/** A port nothing listens on: bound, then released. */
export const closedPort = async (): Promise<number> => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};
