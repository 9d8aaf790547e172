/**
 * bench:api's baseline, in a process of its own: a one-route Express 5 app (ETag and X-Powered-By off, as the API
 * sends neither) answering each measured path from memory with what the API answered for it, captured once: the same
 * body and the same header lines, so the API/Express ratio compares the work behind an answer, not the headers.
 * IPC in: the captured answers once, then 'usage' (answers { cpuUs }); out: { url }. Exits when disconnected.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';

export type CapturedAnswer = [path: string, base64Body: string, headers: [string, string][]];

process.once('message', (captured: CapturedAnswer[]) => {
  const answers = new Map(captured.map(([path, body, headers]) => [path, { body: Buffer.from(body, 'base64'), headers }]));
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.get('/v1/users/*rest', (req, res) => {
    const answer = answers.get(req.originalUrl);
    if (!answer) {
      res.status(404).end();
      return;
    }
    // One by one, as the API sets them.
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.send(answer.body);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
  server.keepAliveTimeout = 65_000;
});
process.on('message', (message) => {
  if (message !== 'usage') return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuUs: user + system });
});
process.once('disconnect', () => process.exit(0));
