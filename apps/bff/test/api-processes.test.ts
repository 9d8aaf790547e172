import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain, startServerProcess } from './helpers/processes.ts';
import { usingPostgres } from './helpers/test-db.ts';

/**
 * API_PROCESSES=2 (node:cluster): two processes answer on one port, the primary serves no HTTP and runs the
 * once-per-instance parts (start-up banner, webhook worker), and SIGTERM to the primary stops every process.
 * Needs PostgreSQL: the embedded database cannot be shared by processes.
 */
const schema = `procs_${process.pid}_${Date.now()}`;
const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });

beforeAll(async () => {
  if (!usingPostgres) return;
  await admin.connect();
  await admin.query(`create schema ${schema}`);
});
afterAll(async () => {
  if (!usingPostgres) return;
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

/** A GET on a connection of its own, so the primary hands each request to the next process in turn. */
const getOnNewConnection = (url: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('API_PROCESSES on the embedded database', () => {
  it('refuses to start: PGlite is one process’s database', async () => {
    const result = await runMain({ API_PROCESSES: '2', DATA_DIR: '/nonexistent-api-processes' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/API_PROCESSES above 1 needs DATABASE_URL/);
  });
});

describe.skipIf(!usingPostgres)('API_PROCESSES', () => {
  it('answers from two processes on one port and stops them all on SIGTERM', async () => {
    const url = new URL(process.env.DATABASE_URL as string);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const server = await startServerProcess({
      DATABASE_URL: url.toString(),
      API_PROCESSES: '2',
      LOG_LEVEL: 'info',
      DEMO_PORT: 'off',
      BOOTSTRAP_CLIENT_ID: 'cli_sbx_procs01',
      BOOTSTRAP_CLIENT_SECRET: 'procs-secret-0123456789',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await getOnNewConnection(`${server.url}/health`));
    expect(statuses).toEqual(Array(10).fill(200));

    expect(await server.stop()).toBe(0);
    // Each process flushed its access log on the way out; the pid on each line says who answered.
    const answeredBy = new Set(
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { pid: number; msg: string; req?: { path?: string } })
        .filter((line) => line.msg === 'request completed' && line.req?.path === '/health')
        .map((line) => line.pid),
    );
    expect(answeredBy.size).toBe(2);
    expect(answeredBy.has(server.child.pid as number)).toBe(false);
    for (const pid of answeredBy) expect(isAlive(pid), `API process ${pid} still running`).toBe(false);
    // Start-up ran once, in the primary: one banner, not one per process.
    expect(server.output().match(/is running\./g)).toHaveLength(1);
  });
});
