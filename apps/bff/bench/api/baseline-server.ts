/**
 * The baseline of `bench:api`, in a process of its own: a one-route Express 5 app (ETag and X-Powered-By off, as
 * the API must not send them either) that answers each measured path from memory with what the API answered for
 * it, captured once: the same body and the same header lines (security headers, rate-limit headers, request id,
 * Cache-Control…), so the API/Express ratio compares the work behind an answer, not the number of headers.
 * Any other path is 404.
 *
 * With `database` (PostgreSQL), it also takes the mixed load's two writes, each the least a Node server does for
 * them: `POST /v1/users/enroll` (express.json, a type check of each field, one INSERT of the user with its input as
 * jsonb, 201), `PATCH /v1/users/{userId}/alerts/{alertId}` (one UPDATE … RETURNING of one of the pool of unread
 * alerts both servers hold, mix-alerts.ts, 200) and, for
 * BENCH_MIX_WRITE=consent, `POST /v1/users/{userId}/consent` (one INSERT, 201), over a pg pool of 10 in a
 * throwaway schema, answered with the same header lines. No encryption, consent, event, audit or validation schema:
 * what "reads keep N % with 5 % writes" can be for a server whose writes do only that (bench:api, phase 3).
 *
 * IPC in: { answers: [path, base64 body, [header, value][]][], database? } once, then 'cpu' (answers
 * { cpuUs }, this process's CPU time so far); IPC out: { url }. Exits (dropping its schema) when the coordinator
 * disconnects.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { serveWrites } from './baseline-writes.ts';
import { gcTotals } from './gc-meter.ts';

export type CapturedAnswer = [path: string, body: string, headers: [string, string][]];
export interface BaselineSetup {
  answers: CapturedAnswer[];
  /** PostgreSQL connection string: with it, the baseline also serves the mixed load's writes. */
  database?: string;
}

let closeWrites = async () => {};

process.once('message', async (message: BaselineSetup) => {
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
  if (message.database) {
    const writeHeaders = (message.answers[0]?.[2] ?? []).filter(([name]) => name.toLowerCase() !== 'content-type');
    closeWrites = await serveWrites(app, message.database, (res) => {
      for (const [name, value] of writeHeaders) res.setHeader(name, value);
    });
  }
  // BENCH_BASELINE_READS=raw (a diagnostic): the measured reads are answered before Express, by Node's HTTP server
  // alone, so they cost about what the API's cached reads cost; the writes still go through Express. What a server
  // whose reads are that cheap keeps with the same writes among them (docs/operator/benchmarks.md, eleventh session).
  const rawReads = process.env.BENCH_BASELINE_READS === 'raw';
  const server = http.createServer((req, res) => {
    const answer = rawReads && req.method === 'GET' ? answers.get(req.url ?? '') : undefined;
    if (!answer) return app(req, res);
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.end(answer.body);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  });
});
process.on('message', (message) => {
  if (message !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuUs: user + system, ...gcTotals() });
});
process.once('disconnect', () => void closeWrites().finally(() => process.exit(0)));
