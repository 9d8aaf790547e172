/**
 * bench:webhooks' HTTPS receiver, in a process of its own so that taking deliveries costs the dispatcher no CPU.
 * Answers 200 at once and records when each (subscription path, user) arrived, on the machine-wide clock
 * (performance.timeOrigin + now) the producer also uses. IPC in: { cert, key } to start, then 'take' (answers every
 * receipt since the last take); out: { port }.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';

let receipts: { keys: string[]; times: number[] } = { keys: [], times: [] };

process.once('message', (tls: { cert: string; key: string }) => {
  const server = https.createServer({ ...tls, keepAliveTimeout: 5_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const { data } = JSON.parse(Buffer.concat(chunks).toString()) as { data: { userId: string } };
      receipts.keys.push(`${req.url}|${data.userId}`);
      receipts.times.push(at);
      res.writeHead(200, { 'content-length': '0' }).end();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
    process.on('message', (message) => {
      if (message !== 'take') return;
      process.send?.(receipts);
      receipts = { keys: [], times: [] };
    });
  });
});
process.on('disconnect', () => process.exit(0));
