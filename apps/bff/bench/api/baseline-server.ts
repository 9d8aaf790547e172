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
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import pg from 'pg';
import { MIX_ALERT_POOL, mixAlertIdSql } from './mix-alerts.ts';

export type CapturedAnswer = [path: string, body: string, headers: [string, string][]];
export interface BaselineSetup {
  answers: CapturedAnswer[];
  /** PostgreSQL connection string: with it, the baseline also serves the mixed load's writes. */
  database?: string;
}

const ENROLMENT_FIELDS = ['externalUserId', 'email', 'firstName', 'lastName', 'ssn', 'dateOfBirth'] as const;

/** The two writes of the mixed load, each one statement; `setHeaders` adds the API's header lines. */
const serveWrites = async (
  app: Express,
  database: string,
  setHeaders: (res: express.Response) => void,
): Promise<() => Promise<void>> => {
  // Tables named with their schema: a search_path in DATABASE_URL's options would win over one set here.
  const schema = `bench_baseline_${randomBytes(6).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: database, max: 10 });
  pool.on('error', () => {});
  const close = async () => {
    await pool.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    await pool.end().catch(() => {});
  };
  try {
    await pool.query(`create schema ${schema}`);
    await pool.query(`create table ${schema}.users (id text primary key, external_user_id text unique not null,
      email text not null, input jsonb not null, created_at timestamptz not null)`);
    await pool.query(`create table ${schema}.alerts (id text primary key, user_id text not null, status text not null,
      read_at timestamptz)`);
    await pool.query(
      `insert into ${schema}.alerts select ${mixAlertIdSql('n')}, 'usr_bench', 'unread', null
       from generate_series(1, $1::int) n`,
      [MIX_ALERT_POOL],
    );
    await pool.query(`create table ${schema}.consents (id text primary key, user_id text not null, input jsonb not null,
      created_at timestamptz not null)`);
  } catch (error) {
    await close();
    throw error;
  }
  app.post('/v1/users/enroll', express.json(), async (req, res) => {
    const body = req.body as Record<string, unknown>;
    if (ENROLMENT_FIELDS.some((field) => typeof body?.[field] !== 'string') || typeof body.address !== 'object') {
      res.status(400).json({ error: { code: 'VALIDATION_ERROR' } });
      return;
    }
    const id = `usr_${randomUUID()}`;
    const { rows } = await pool.query<{ created_at: Date }>(
      `insert into ${schema}.users values ($1, $2, $3, $4, now()) returning created_at`,
      [id, body.externalUserId, body.email, body],
    );
    setHeaders(res);
    res.status(201).json({
      data: {
        userId: id,
        externalUserId: body.externalUserId,
        status: 'pending_verification',
        createdAt: rows[0]?.created_at.toISOString(),
      },
    });
  });
  app.patch('/v1/users/:userId/alerts/:alertId', express.json(), async (req, res) => {
    if ((req.body as { status?: unknown })?.status !== 'read') {
      res.status(400).json({ error: { code: 'VALIDATION_ERROR' } });
      return;
    }
    const { rows } = await pool.query(
      `update ${schema}.alerts set status = 'read', read_at = coalesce(read_at, now()) where id = $1 returning *`,
      [req.params.alertId],
    );
    if (!rows[0]) {
      res.status(404).end();
      return;
    }
    setHeaders(res);
    res.json({ data: rows[0] });
  });
  app.post('/v1/users/:userId/consent', express.json(), async (req, res) => {
    const body = req.body as Record<string, unknown>;
    if (typeof body?.termsVersion !== 'string' || typeof body.method !== 'string') {
      res.status(400).json({ error: { code: 'VALIDATION_ERROR' } });
      return;
    }
    const { rows } = await pool.query<{ created_at: Date }>(
      `insert into ${schema}.consents values ($1, $2, $3, now()) returning created_at`,
      [`cns_${randomUUID()}`, req.params.userId, body],
    );
    setHeaders(res);
    res
      .status(201)
      .json({ data: { status: 'active', termsVersion: body.termsVersion, acceptedAt: rows[0]?.created_at.toISOString() } });
  });
  return close;
};

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
process.once('disconnect', () => void closeWrites().finally(() => process.exit(0)));
