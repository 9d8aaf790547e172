/**
 * The load generators of bench:api, each a process of its own (on the generators' CPU when pinning): `wrk` for
 * throughput and the mixed load, Debian's `hey -q` (each worker sends at a fixed rate) for the paced load.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pinned } from '../common.ts';

export interface LoadResult {
  reqPerSec: number;
  /** Milliseconds. */
  p99: number;
  max: number;
  /** Answers that were not 2xx, and requests that got no answer (socket errors, timeouts). */
  failed: number;
}

/** The tools missing from the PATH (`wrk -v` exits 1, so ask the shell). */
export const missingTools = (...tools: string[]) =>
  tools.filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });

const run = (cpu: number, tool: string, args: string[]): Promise<string> =>
  new Promise((resolve, reject) => {
    const [command, ...prefix] = [...pinned(cpu), tool];
    execFile(command as string, [...prefix, ...args], { maxBuffer: 1 << 24 }, (error, out) =>
      error ? reject(error) : resolve(out),
    );
  });
const headerArgs = (headers: Record<string, string>) => Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);

// wrk prints its own summary; this adds the numbers we need as one JSON line (latency in µs).
const WRK_REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"p99Us":%d,"maxUs":%d,"failed":%d}\\n',
    summary.requests, summary.duration, latency:percentile(99), latency.max,
    e.status + e.connect + e.read + e.write + e.timeout))
end
`;
const scripts = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
let scriptCount = 0;

/** `wrk` with 1 thread; `lua` defines `request()` for a mix of requests. */
export const wrk = async (
  cpu: number,
  load: { url: string; connections: number; seconds: number; headers: Record<string, string>; lua?: string },
): Promise<LoadResult> => {
  const script = path.join(scripts, `run-${++scriptCount}.lua`);
  writeFileSync(script, `${load.lua ?? ''}\n${WRK_REPORT}`);
  const args = ['-t1', `-c${load.connections}`, `-d${load.seconds}s`, '--timeout', '2s', '-s', script];
  const out = await run(cpu, 'wrk', [...args, ...headerArgs(load.headers), load.url]);
  const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no report:\n${out}`);
  const r = JSON.parse(line) as Record<string, number>;
  const us = (key: string) => (r[key] as number) / 1000;
  return {
    reqPerSec: (r.requests as number) / ((r.durationUs as number) / 1e6),
    p99: us('p99Us'),
    max: us('maxUs'),
    failed: r.failed as number,
  };
};

const number = (text: string, label: RegExp): number => {
  const match = label.exec(text);
  if (!match) throw new Error(`hey printed no ${label}:\n${text}`);
  return Number(match[1]);
};

/** `hey -q`: the rate is per worker, so each of the `workers` sends rate/workers requests a second. */
export const hey = async (
  cpu: number,
  load: { url: string; rate: number; workers: number; seconds: number; headers: Record<string, string> },
): Promise<LoadResult> => {
  const perWorker = String(Math.max(1, Math.round(load.rate / load.workers)));
  const args = ['-z', `${load.seconds}s`, '-c', String(load.workers), '-q', perWorker, '-t', '5'];
  const out = await run(cpu, 'hey', [...args, ...headerArgs(load.headers), load.url]);
  const statuses = [...out.matchAll(/\[(\d{3})\]\s+(\d+) responses/g)];
  const notOk = statuses.filter(([, code]) => !code?.startsWith('2')).reduce((n, [, , count]) => n + Number(count), 0);
  const errors = [...out.matchAll(/\[(\d+)\]\s+Get /g)].reduce((n, [, count]) => n + Number(count), 0);
  return {
    reqPerSec: number(out, /Requests\/sec:\s+([\d.]+)/),
    p99: 1000 * number(out, /99%+ in ([\d.]+) secs/),
    max: 1000 * number(out, /Slowest:\s+([\d.]+) secs/),
    failed: notOk + errors,
  };
};
