/**
 * The bench's HTTPS receiver, in a process of its own so parsing and answering deliveries does not take CPU
 * from the dispatcher. Answers 200 at once and records when each (subscription path, user) arrived, on the
 * machine-wide clock (performance.timeOrigin + now) that the producer also uses.
 *
 * IPC in: { cert, key } to start; 'count' (answers { count }); 'take' (answers every receipt since the last take).
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();

let paths: string[] = [];
let users: string[] = [];
let times: number[] = [];
let count = 0;
let connections = 0;

const send = (message: unknown) => process.send?.(message);

process.once('message', (start: { cert: string; key: string }) => {
  const server = https.createServer({ cert: start.cert, key: start.key, keepAliveTimeout: 5_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { data: { userId: string } };
      paths.push(req.url ?? '');
      users.push(body.data.userId);
      times.push(at);
      count++;
      res.writeHead(200, { 'content-length': '0' }).end();
    });
  });
  server.on('secureConnection', () => {
    connections++;
  });
  server.listen(0, '127.0.0.1', () => {
    send({ port: (server.address() as AddressInfo).port });
    process.on('message', (message: string) => {
      if (message === 'count') send({ count, connections });
      if (message === 'take') {
        send({ paths, users, times });
        paths = [];
        users = [];
        times = [];
      }
    });
  });
});
process.on('disconnect', () => process.exit(0));
