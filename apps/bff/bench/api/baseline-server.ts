/**
 * The baseline of `bench:api`, in a process of its own: a one-route Express 5 app (ETag and X-Powered-By off, as
 * the API must not send them either) that answers each measured path from memory with what the API answered for
 * it, captured once: the same body and the same header lines (security headers, rate-limit headers, request id,
 * Cache-Control…), so the API/Express ratio compares the work behind an answer, not the number of headers.
 * Any other path is 404.
 *
 * IPC in: { answers: [path, base64 body, [header, value][]][] } once, then 'cpu' (answers { cpuUs }, this process's
 * CPU time so far); IPC out: { url }. Exits when the coordinator disconnects.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

export type CapturedAnswer = [path: string, body: string, headers: [string, string][]];

process.once('message', (message: { answers: CapturedAnswer[] }) => {
  const answers = new Map(
    message.answers.map(([path, body, headers]) => [path, { body: Buffer.from(body, 'base64'), headers }] as const),
  );
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  // One route for every measured path, as the API matches one operation per request.
  app.get('/v1/users/*rest', (req, res) => {
    const answer = answers.get(req.originalUrl);
    if (!answer) {
      res.status(404).end();
      return;
    }
    // Set one by one, as the API's middlewares do (Express's res.set also normalises Content-Type like this).
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.send(answer.body);
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
});
process.on('message', (message) => {
  if (message !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuUs: user + system });
});
process.once('disconnect', () => process.exit(0));
