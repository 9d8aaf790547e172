/**
 * The fallback load generator when `wrk` is not installed: autocannon, in a process of its own so that generating
 * load never takes CPU from the server or the coordinator.
 *
 * IPC in: { url, connections, duration, timeout, headers, overallRate? } per run; IPC out: a LoadResult per run.
 */
import autocannon from 'autocannon';
import type { LoadResult, LoadRun } from './load.ts';

process.on('message', async (run: LoadRun & { overallRate?: number }) => {
  const result = await autocannon({
    url: run.url,
    connections: run.connections,
    duration: run.duration,
    timeout: run.timeout,
    headers: run.headers,
    ...(run.overallRate ? { overallRate: run.overallRate } : {}),
  });
  const answer: LoadResult = {
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  process.send?.(answer);
});
process.once('disconnect', () => process.exit(0));
