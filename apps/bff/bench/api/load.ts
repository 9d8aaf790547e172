/**
 * The load generators, always processes apart from the servers and the coordinator, on the generator CPU when
 * pinning is on. Throughput: `wrk` when it is installed (BENCH_GENERATOR=autocannon forces the fallback), else
 * autocannon in a forked child. Paced load: Debian's `hey` with `-q` (each worker sends at a fixed rate), else
 * autocannon's `overallRate`.
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
  /** wrk only: Lua defining `request()`, for a mix of requests (see api.bench.ts). */
  luaRequest?: string;
}

export interface LoadResult {
  reqPerSec: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Milliseconds: the slowest answer. */
  max: number;
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
const WRK_REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,"status":%d,"socket":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.status, e.connect + e.read + e.write + e.timeout))
end
`;

const wrk = (pin: Pin, cpu: number): Generator => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  const report = path.join(dir, 'report.lua');
  writeFileSync(report, WRK_REPORT);
  let scripts = 0;
  return {
    name: 'wrk',
    run: (load) =>
      new Promise((resolve, reject) => {
        let script = report;
        if (load.luaRequest) {
          script = path.join(dir, `run-${++scripts}.lua`);
          writeFileSync(script, `${load.luaRequest}\n${WRK_REPORT}`);
        }
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
            max: (r.maxUs as number) / 1000,
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
        if (load.luaRequest) throw new Error('a mix of requests needs wrk (apt-get install wrk)');
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

export interface PacedRun {
  url: string;
  /** Requests per second over all workers, evenly spaced within each. */
  rate: number;
  workers: number;
  /** Seconds. */
  duration: number;
  headers: Record<string, string>;
}

export interface Pacer {
  name: string;
  run(load: PacedRun): Promise<LoadResult>;
  close(): void;
}

const seconds = (text: string, label: RegExp): number => {
  const match = label.exec(text);
  if (!match) throw new Error(`hey printed no ${label}:\n${text}`);
  return Number(match[1]);
};

/** Debian's `hey`: `-q` is per worker, so each of the `workers` sends rate/workers requests a second. */
const hey = (pin: Pin, cpu: number): Pacer => ({
  name: 'hey -q',
  run: (load) =>
    new Promise((resolve, reject) => {
      const perWorker = Math.max(1, Math.round(load.rate / load.workers));
      const headers = Object.entries(load.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
      const args = ['-z', `${load.duration}s`, '-c', String(load.workers), '-q', String(perWorker), '-t', '5'];
      const [command, ...prefix] = [...pin.prefix(cpu), 'hey'];
      execFile(command as string, [...prefix, ...args, ...headers, load.url], { maxBuffer: 1 << 24 }, (error, out) => {
        if (error) return reject(error);
        try {
          const statuses = [...out.matchAll(/\[(\d{3})\]\s+(\d+) responses/g)];
          const ok = statuses.filter(([, code]) => code?.startsWith('2')).reduce((n, [, , count]) => n + Number(count), 0);
          const all = statuses.reduce((n, [, , count]) => n + Number(count), 0);
          const errors = [...out.matchAll(/\[(\d+)\]\s+Get /g)].reduce((n, [, count]) => n + Number(count), 0);
          resolve({
            reqPerSec: seconds(out, /Requests\/sec:\s+([\d.]+)/),
            p50: 1000 * seconds(out, /50%+ in ([\d.]+) secs/),
            p99: 1000 * seconds(out, /99%+ in ([\d.]+) secs/),
            max: 1000 * seconds(out, /Slowest:\s+([\d.]+) secs/),
            non2xx: all - ok,
            errors,
          });
        } catch (parseError) {
          reject(parseError);
        }
      });
    }),
  close: () => {},
});

/** Fallback: autocannon's overallRate over `workers` connections, in the child process the throughput runs use. */
const autocannonPacer = (pin: Pin, cpu: number): Pacer => {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'autocannon-runner.ts'), { stdio: 'inherit' });
  pin.process(child.pid, cpu);
  return {
    name: 'autocannon overallRate (child process)',
    run: (load) =>
      new Promise((resolve) => {
        child.once('message', (result) => resolve(result as LoadResult));
        child.send({
          url: load.url,
          connections: load.workers,
          duration: load.duration,
          timeout: 5,
          headers: load.headers,
          overallRate: load.rate,
        });
      }),
    close: () => child.disconnect(),
  };
};

export const openPacer = (pin: Pin, cpu: number): Pacer =>
  process.env.BENCH_GENERATOR !== 'autocannon' && hasCommand('hey') ? hey(pin, cpu) : autocannonPacer(pin, cpu);
