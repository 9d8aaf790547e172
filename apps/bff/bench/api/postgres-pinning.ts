/**
 * BENCH_PIN_POSTGRES=1: keeps a local PostgreSQL off the servers' CPU for the length of a benchmark, and puts it back
 * as it was. A diagnostic, off by default.
 *
 * Why: on a two-CPU machine the servers have CPU 0 and the load generators CPU 1; PostgreSQL, left to the scheduler,
 * runs on either. When its work lands on CPU 0 it takes that time from whichever server is being measured, in
 * proportion to the database work that server's requests cause. Pinned, it takes it from the generators and slows
 * every answer that waits on it instead. Neither placement is the production one (a database on its own machine), so
 * the bench prints which it used. Measured in the eleventh session (docs/operator/benchmarks.md): pinned, the mixed
 * load's reads kept more (median 84 % against 70 %, six alternated pairs), and the API's paced latency got worse (its
 * reads wait on the audit spool's commits, which then share a CPU with `hey`).
 *
 * How: the postmaster is found as the parent of this connection's backend; it and its children (backends, WAL
 * writer, checkpointer) get the generators' CPU, and backends forked later inherit it. The original mask is restored
 * on the postmaster and every child it then has, when the benchmark ends, however it ends (exit, SIGINT, SIGTERM).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';

export type PostgresPinning = { pinned: true; postmaster: number; restore: () => void } | { pinned: false; why: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '']);

const parentOf = (pid: number): number => {
  // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after its closing parenthesis.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
};

const affinityOf = (pid: number): string =>
  // "pid 123's current affinity mask: 3"
  execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' })
    .trim()
    .split(' ')
    .at(-1) ?? '';

const setAffinity = (pid: number, args: string[]) => {
  try {
    execFileSync('taskset', ['-a', '-p', ...args, String(pid)], { stdio: 'ignore' });
  } catch {
    // A backend that ended between listing and pinning.
  }
};

export const pinPostgres = async (databaseUrl: string, cpu: number): Promise<PostgresPinning> => {
  const host = new URL(databaseUrl).hostname;
  if (!LOOPBACK.has(host)) return { pinned: false, why: `PostgreSQL at ${host} is not on this machine` };
  const client = new pg.Client({ connectionString: databaseUrl });
  let postmaster: number;
  let original: string;
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    // Read while the backend lives: it exits with the connection.
    postmaster = parentOf(Number(rows[0]?.pid));
    original = affinityOf(postmaster);
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(postmaster)], { stdio: 'ignore' });
  } catch (error) {
    // Another user's server, or a PostgreSQL in a container whose processes this machine's /proc does not show.
    return { pinned: false, why: `cannot set its CPU affinity (${(error as Error).message.split('\n')[0]})` };
  } finally {
    await client.end().catch(() => {});
  }
  for (const child of childrenOf(postmaster)) setAffinity(child, ['-c', String(cpu)]);

  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    setAffinity(postmaster, [original]);
    for (const child of childrenOf(postmaster)) setAffinity(child, [original]);
  };
  process.once('exit', restore);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      restore();
      process.exit(130);
    });
  }
  return { pinned: true, postmaster, restore };
};
