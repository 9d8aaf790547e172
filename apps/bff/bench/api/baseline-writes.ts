/**
 * The Express baseline's handlers for the mixed load's writes, each the least a Node server does for them (see
 * baseline-server.ts): served by the baseline, and, with BENCH_MIX_HANDLER=baseline, by the API's process in place of
 * its own write routes (api-server.ts), so a run can tell what the API's reads lose to any write that reaches the
 * database from what they lose to the API's own write code.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import pg from 'pg';
import { MIX_ALERT_POOL, mixAlertIdSql } from './mix-alerts.ts';

const ENROLMENT_FIELDS = ['externalUserId', 'email', 'firstName', 'lastName', 'ssn', 'dateOfBirth'] as const;

/** The two writes of the mixed load, each one statement; `setHeaders` adds the API's header lines. */
export const serveWrites = async (
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
