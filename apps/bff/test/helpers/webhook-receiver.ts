import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import selfsigned from 'selfsigned';

export interface ReceivedDelivery {
  headers: Record<string, string | string[] | undefined>;
  /** The exact bytes received, as text. */
  raw: string;
  body: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  receivedAt: number;
}

export interface Receiver {
  url: string;
  /** The self-signed certificate, written to a file for WEBHOOK_CA_FILE. */
  caFile: string;
  received: ReceivedDelivery[];
  /** Status to answer with (default 200); a function sees each delivery. */
  respond: number | ((delivery: ReceivedDelivery) => number);
  /** Holds each answer this long, so deliveries are in flight when a test needs them to be. */
  delayMs: number;
  close(): Promise<void>;
}

let certificate: Promise<{ cert: string; private: string }> | undefined;
const certificateOnce = () => {
  certificate ??= selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return certificate;
};

/** A real HTTPS endpoint with a self-signed certificate that records every delivery it gets. */
export const startReceiver = async (
  onDelivery?: (d: ReceivedDelivery) => void,
  onAnswered?: (d: ReceivedDelivery) => void,
): Promise<Receiver> => {
  const pems = await certificateOnce();
  const caFile = path.join(tmpdir(), `webhook-ca-${process.pid}.pem`);
  writeFileSync(caFile, pems.cert);
  const receiver: Receiver = {
    url: '',
    caFile,
    received: [],
    respond: 200,
    delayMs: 0,
    close: async () => {},
  };
  const server = https.createServer({ cert: pems.cert, key: pems.private }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const delivery: ReceivedDelivery = { headers: req.headers, raw, body: JSON.parse(raw), receivedAt: Date.now() };
      receiver.received.push(delivery);
      onDelivery?.(delivery);
      const status = typeof receiver.respond === 'function' ? receiver.respond(delivery) : receiver.respond;
      const answer = () => {
        onAnswered?.(delivery);
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
};

/** Polls every few milliseconds until `check` passes or `timeoutMs` have gone by (no fixed sleeps in assertions). */
export const waitFor = async <T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
};
