/**
 * The processes of bench:monitoring, started as production starts them (under tsx from source): `pnpm bureau`
 * (src/cli/bureau.ts), whose one line per answered call is what pulls/s is counted from, and `ROLE=worker` instances
 * of src/main.ts. Their CPU time and RSS are read from /proc.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pin } from '../common.ts';

const BFF = path.resolve(import.meta.dirname, '../../apps/bff');
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat); undefined once it is gone. */
export const cpuMs = (pid: number | undefined): number | undefined => {
  try {
    // After the command name (which may hold spaces): utime and stime are the 12th and 13th fields.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

/** Resident set size now, in MB (VmRSS of /proc/<pid>/status). */
export const rssMb = (pid: number | undefined): number => {
  try {
    return Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

// Each child gets exactly the instance settings the bench decides, none of the caller's.
const {
  DATABASE_URL: _d,
  REDIS_URL: _r,
  BUREAU_URL: _u,
  BUREAU_API_KEY: _k,
  BUREAU_MAX_PER_SECOND: _m,
  ...cleanEnv
} = process.env;

const spawnPinned = (file: string, env: Record<string, string>, cpu: number, onLine: (line: string) => void) => {
  // BENCH_CPU_PROF=<dir> writes each child's V8 CPU profile there, for finding where a phase's CPU goes.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(BFF, file)], {
    cwd: BFF,
    env: { ...cleanEnv, ...env },
  });
  pin(child.pid, cpu);
  let partial = '';
  const take = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { child, stop };
};

const started = <T>(child: ChildProcess, what: string, tail: () => string, register: (resolve: (value: T) => void) => void) =>
  new Promise<T>((resolve, reject) => {
    register(resolve);
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it started:\n${tail()}`)));
  });

export interface BureauProcess {
  url: string;
  pid: number | undefined;
  /** Arrival times (epoch ms) of the answers to credit-file pulls. */
  pulls: number[];
  stop(): Promise<void>;
}

export const startBureau = (apiKey: string, cpu: number): Promise<BureauProcess> => {
  const pulls: number[] = [];
  let found: ((url: string) => void) | undefined;
  let tail = '';
  const { child, stop } = spawnPinned('src/cli/bureau.ts', { BUREAU_PORT: '0', BUREAU_API_KEY: apiKey }, cpu, (line) => {
    tail = `${tail}${line}\n`.slice(-4000);
    // A batch's line names its files: each is a pull.
    const answered = /^POST \S*credit\S* 200 \d+ ms(?: \((\d+) files\))?/.exec(line);
    if (answered) for (let i = Number(answered[1] ?? 1); i > 0; i--) pulls.push(Date.now());
    const url = /URL:\s+(\S+)/.exec(line)?.[1];
    if (url) found?.(url);
  });
  return started(
    child,
    'pnpm bureau',
    () => tail,
    (resolve) => {
      found = (url) => resolve({ url, pid: child.pid, pulls, stop });
    },
  );
};

export interface WorkerProcess {
  pid: number | undefined;
  /** Log lines at warn level or above so far. */
  problems(): number;
  stop(): Promise<void>;
}

/** A worker-role instance; resolves once it printed its start-up banner (migrated, connected, jobs started). */
export const startWorker = (env: Record<string, string>, cpu: number): Promise<WorkerProcess> => {
  let problems = 0;
  let ready: (() => void) | undefined;
  let tail = '';
  const workerEnv = { ROLE: 'worker', PORT: '0', DEMO_PORT: 'off', LOG_LEVEL: 'info', ...env };
  const { child, stop } = spawnPinned('src/main.ts', workerEnv, cpu, (line) => {
    if (/"level":(4|5|6)0/.test(line)) problems += 1;
    if (line.startsWith('{')) return;
    tail = `${tail}${line}\n`.slice(-4000);
    if (/worker/i.test(line)) ready?.();
  });
  return started(
    child,
    'worker',
    () => tail,
    (resolve) => {
      ready = () => resolve({ pid: child.pid, problems: () => problems, stop });
    },
  );
};
