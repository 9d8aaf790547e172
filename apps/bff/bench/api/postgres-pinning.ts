/**
 * BENCH_PIN_POSTGRES=1: keeps a local PostgreSQL off the servers' CPU for the length of a benchmark, and puts it back
 * as it was. A diagnostic, off by default.
 *
 * Why: on a two-CPU machine the servers have CPU 0 and the load generators CPU 1; PostgreSQL, left to the scheduler,
 * runs on either. When its work lands on CPU 0 it takes that time from whichever server is being measured, in
 * proportion to the database work that server's requests cause. Pinned, it takes it from the generators and slows
 * every answer that waits on it instead. Neither placement is the production one (a database on its own machine), so
 * the bench prints which it used. Measured in the eleventh session (docs/operator/benchmarks.md): pinned, the mixed
 * load's reads kept more (median 84 % against 72 %, six alternated pairs), and the API's paced latency got worse (its
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

const commandOf = (pid: number): string => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

const hasPgrep = (): boolean => {
  try {
    execFileSync('pgrep', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * The postmaster of the server behind `databaseUrl`, when it runs on this machine and /proc shows it: the parent of
 * this connection's backend, both named `postgres`. (A server in a container reports a pid of its own namespace,
 * which on the host may be any process: the name check refuses it.)
 */
const findPostmaster = async (databaseUrl: string): Promise<number> => {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    // Read while the backend lives: it exits with the connection.
    const backend = Number(rows[0]?.pid);
    const postmaster = parentOf(backend);
    if (commandOf(backend) !== 'postgres' || commandOf(postmaster) !== 'postgres') {
      throw new Error(`process ${backend} or its parent ${postmaster} is not named postgres here`);
    }
    return postmaster;
  } finally {
    await client.end().catch(() => {});
  }
};

export const pinPostgres = async (databaseUrl: string, cpu: number): Promise<PostgresPinning> => {
  let host: string;
  try {
    host = new URL(databaseUrl).hostname;
  } catch {
    return { pinned: false, why: 'DATABASE_URL is not a URL' };
  }
  if (!LOOPBACK.has(host)) return { pinned: false, why: `PostgreSQL at ${host} is not on this machine` };
  // Without pgrep its children could not be listed, so backends forked during the run would keep the CPU after it.
  if (!hasPgrep()) return { pinned: false, why: 'no pgrep to list its processes' };
  let postmaster: number;
  try {
    postmaster = await findPostmaster(databaseUrl);
  } catch (error) {
    return { pinned: false, why: `cannot find its processes (${(error as Error).message.split('\n')[0]})` };
  }
  // Each process's own mask, to put back; processes forked during the run get the postmaster's.
  const originals = new Map<number, string>();
  try {
    for (const pid of [postmaster, ...childrenOf(postmaster)]) originals.set(pid, affinityOf(pid));
  } catch (error) {
    return { pinned: false, why: `cannot read its CPU affinity (${(error as Error).message.split('\n')[0]})` };
  }
  const postmasterMask = originals.get(postmaster) as string;

  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    setAffinity(postmaster, [postmasterMask]);
    for (const child of childrenOf(postmaster)) setAffinity(child, [originals.get(child) ?? postmasterMask]);
  };
  // Registered before anything is pinned, so no way out of the run leaves PostgreSQL pinned.
  process.once('exit', restore);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      restore();
      process.exit(code);
    });
  }
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(postmaster)], { stdio: 'ignore' });
  } catch (error) {
    restore();
    return { pinned: false, why: `cannot set its CPU affinity (${(error as Error).message.split('\n')[0]})` };
  }
  for (const child of childrenOf(postmaster)) setAffinity(child, ['-c', String(cpu)]);
  return { pinned: true, postmaster, restore };
};
