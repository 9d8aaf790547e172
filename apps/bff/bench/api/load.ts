/**
 * The load generator, always a process apart from the servers and the coordinator: `wrk` when it is installed
 * (BENCH_GENERATOR=autocannon forces the fallback), else autocannon in a forked child. Either way it runs on the
 * generator CPU when pinning is on.
 */
import { type ChildProcess, execFile, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LoadRun {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Seconds a request may take before it counts as an error (a socket timeout). */
  timeout: number;
  headers: Record<string, string>;
}

export interface LoadResult {
  reqPerSec: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** wrk counts statuses ≥ 400 here (the measured routes never redirect); autocannon counts every non-2xx. */
  non2xx: number;
  /** Socket errors and timeouts: requests that got no answer. */
  errors: number;
}

export interface Generator {
  name: string;
  run(load: LoadRun): Promise<LoadResult>;
  close(): void;
}

/** Whether `command` is on the PATH (`wrk -v` exits 1, so ask the shell). */
export const hasCommand = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** `taskset -c <cpu>` in front of a command when pinning, else nothing. */
export type Pin = { prefix(cpu: number): string[]; process(pid: number | undefined, cpu: number): void };

// wrk prints its own summary; this prints the numbers we need as one JSON line (latency in µs).
const WRK_SCRIPT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"status":%d,"socket":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
`;

const wrk = (pin: Pin, cpu: number): Generator => {
  const script = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-api-')), 'report.lua');
  writeFileSync(script, WRK_SCRIPT);
  return {
    name: 'wrk',
    run: (load) =>
      new Promise((resolve, reject) => {
        const headers = Object.entries(load.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
        const args = ['-t1', `-c${load.connections}`, `-d${load.duration}s`, `--timeout`, `${load.timeout}s`, '-s', script];
        const [command, ...prefix] = [...pin.prefix(cpu), 'wrk'];
        execFile(command as string, [...prefix, ...args, ...headers, load.url], (error, stdout) => {
          if (error) return reject(error);
          const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
          if (!line) return reject(new Error(`wrk printed no report:\n${stdout}`));
          const r = JSON.parse(line) as Record<string, number>;
          resolve({
            reqPerSec: (r.requests as number) / ((r.durationUs as number) / 1e6),
            p50: (r.p50Us as number) / 1000,
            p99: (r.p99Us as number) / 1000,
            non2xx: r.status as number,
            errors: r.socket as number,
          });
        });
      }),
    close: () => {},
  };
};

const autocannon = (pin: Pin, cpu: number): Generator => {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'autocannon-runner.ts'), { stdio: 'inherit' });
  pin.process(child.pid, cpu);
  return {
    name: 'autocannon (child process)',
    run: (load) =>
      new Promise((resolve) => {
        child.once('message', (result) => resolve(result as LoadResult));
        child.send(load);
      }),
    close: () => child.disconnect(),
  };
};

export const openGenerator = (pin: Pin, cpu: number): Generator => {
  const forced = process.env.BENCH_GENERATOR;
  if (forced !== 'autocannon' && hasCommand('wrk')) return wrk(pin, cpu);
  if (forced === 'wrk') throw new Error('BENCH_GENERATOR=wrk but wrk is not installed');
  return autocannon(pin, cpu);
};
