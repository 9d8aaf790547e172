/**
 * The processes of the monitoring bench: `pnpm bureau` (src/cli/bureau.ts) and worker-role instances of src/main.ts,
 * each started as production starts them (node --import tsx), pinned with taskset when it exists. The bureau's
 * one line per answered call is what pulls/s is counted from; the workers' JSON log lines are kept for the
 * 'monitoring progress' windows.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(REPO_ROOT, 'apps/bff/src/main.ts');
const BUREAU_CLI = path.join(REPO_ROOT, 'apps/bff/src/cli/bureau.ts');

// Read before anything pins this process, which narrows what availableParallelism reports.
export const CPUS = os.availableParallelism();
const canPin = (() => {
  if (process.env.BENCH_PIN === '0' || CPUS < 2) return false;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
export const pinning = canPin;

export const pin = (pid: number | undefined, cpu: number) => {
  if (canPin && pid) execFileSync('taskset', ['-a', '-p', '-c', String(cpu % CPUS), String(pid)], { stdio: 'ignore' });
};

/** Resident set size of a process now, in MB (VmRSS of /proc/<pid>/status); undefined off Linux. */
export const rssMb = (pid: number | undefined): number | undefined => {
  if (!pid) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
};

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat); undefined once it is gone. */
export const cpuMs = (pid: number | undefined): number | undefined => {
  if (!pid) return undefined;
  try {
    // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

const cleanEnv = () => {
  // Nothing of the caller's instance settings leaks into the children: each gets exactly what the bench decides.
  const { DATABASE_URL: _d, REDIS_URL: _r, BUREAU_URL: _u, BUREAU_API_KEY: _k, BUREAU_MAX_PER_SECOND: _m, ...rest } = process.env;
  return rest;
};

const onLines = (child: ChildProcess, each: (line: string) => void) => {
  let partial = '';
  const take = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) each(line);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
};

export interface BureauProcess {
  url: string;
  apiKey: string;
  pid: number | undefined;
  /** Arrival times (epoch ms) of the answers to credit-file pulls, in order. */
  pulls: number[];
  /** The bureau's own time per pull answered (ms, as it logs it), in the same order as `pulls`. */
  answerMs: number[];
  /** Non-200 answers seen (the sandbox bureau should give none). */
  failures: () => number;
  stop(): Promise<void>;
}

export const startBureau = (apiKey: string, cpu: number): Promise<BureauProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BUREAU_CLI], {
      cwd: REPO_ROOT,
      env: { ...cleanEnv(), BUREAU_PORT: '0', BUREAU_API_KEY: apiKey },
    });
    pin(child.pid, cpu);
    const pulls: number[] = [];
    const answerMs: number[] = [];
    let failures = 0;
    let url: string | undefined;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    onLines(child, (line) => {
      const answer = /^POST (\S+) (\d+) (\d+) ms/.exec(line);
      if (answer) {
        if (answer[2] !== '200') failures += 1;
        else if (answer[1]?.includes('credit')) {
          pulls.push(Date.now());
          answerMs.push(Number(answer[3]));
        }
        return;
      }
      const found = /URL:\s+(\S+)/.exec(line)?.[1];
      if (found && !url) {
        url = found;
        resolve({
          url,
          apiKey,
          pid: child.pid,
          pulls,
          answerMs,
          failures: () => failures,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => {
      if (!url) reject(new Error(`pnpm bureau exited with ${code} before listening`));
    });
  });

export interface WorkerProcess {
  pid: number | undefined;
  /** Parsed JSON log lines whose msg is `message`. */
  lines(message: string): Record<string, unknown>[];
  /** Lines at warn level or above (40+), for the report. */
  problems(): Record<string, unknown>[];
  stop(): Promise<void>;
}

/** A worker-role instance; resolves once it printed its start-up banner (migrated, connected, jobs started). */
export const startWorker = (env: Record<string, string>, cpu: number): Promise<WorkerProcess> =>
  new Promise((resolve, reject) => {
    // BENCH_CPU_PROF=<dir>: a V8 CPU profile of each worker, written when it stops.
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', MAIN], {
      cwd: REPO_ROOT,
      env: { ...cleanEnv(), ROLE: 'worker', PORT: '0', DEMO_PORT: 'off', LOG_LEVEL: 'info', ...env },
    });
    pin(child.pid, cpu);
    const parsed: Record<string, unknown>[] = [];
    let started = false;
    let tail = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    onLines(child, (line) => {
      if (line.startsWith('{')) {
        try {
          parsed.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // a line cut by the process ending: not ours to judge
        }
      } else tail = `${tail}${line}\n`.slice(-4000);
      if (!started && /worker/i.test(line) && !line.startsWith('{')) {
        started = true;
        resolve({
          pid: child.pid,
          lines: (message) => parsed.filter((entry) => entry.msg === message),
          problems: () => parsed.filter((entry) => Number(entry.level) >= 40),
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => {
      if (!started) reject(new Error(`worker exited with ${code} before starting:\n${tail}`));
    });
  });
