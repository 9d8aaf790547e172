/**
 * How fast this host is right now, for reading a bench's CPU figures next to another day's: a fixed loop on CPU 0 (ms)
 * and loopback TCP round trips between CPU 0 and the last CPU (CPU µs per round trip, both ends, as /proc counts it).
 * On a virtual machine both move by half again between hours; a bench whose cost is mostly round trips follows the second.
 */
import { execFileSync, spawn } from 'node:child_process';
import { CPUS, pin, pinned } from './common.ts';

const LOOP = 'let s = 0; for (let i = 0; i < 3e8; i++) s += i % 7; if (s < 0) console.log(s);';
const ROUND_TRIPS = 2_000;
const ECHO = `require('node:net').createServer((c) => c.on('data', (d) => c.write(d))).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
// Prints its own CPU µs over the round trips, not its start.
const PING = `const n = require('node:net').connect(Number(process.argv[1]), '127.0.0.1', () => { const c = process.cpuUsage(); let left = ${ROUND_TRIPS}; n.on('data', () => { if (--left > 0) return n.write('x'); const u = process.cpuUsage(c); console.log(u.user + u.system); n.end(); }); n.write('x'); });`;

const cpuTicks = (pid: number) => {
  const fields =
    execFileSync('cat', [`/proc/${pid}/stat`])
      .toString()
      .split(') ')[1]
      ?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
};
const TICK_MS = 1000 / (Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100);

export interface HostSpeed {
  loopMs: number;
  roundTripUs: number;
}

export const probeHost = async (): Promise<HostSpeed> => {
  const started = performance.now();
  const [onCpu0 = process.execPath, ...onCpu0Args] = [...pinned(0), process.execPath];
  execFileSync(onCpu0, [...onCpu0Args, '-e', LOOP]);
  const loopMs = performance.now() - started;
  const echo = spawn(process.execPath, ['-e', ECHO]);
  pin(echo.pid, CPUS - 1);
  const port = await new Promise<string>((resolve) => echo.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
  const echoBefore = cpuTicks(echo.pid ?? 0);
  const ping = spawn(onCpu0, [...onCpu0Args, '-e', PING, port]);
  const pingUs = await new Promise<number>((resolve) => ping.stdout.once('data', (d: Buffer) => resolve(Number(d.toString()))));
  await new Promise((resolve) => ping.once('exit', resolve));
  const echoUs = (cpuTicks(echo.pid ?? 0) - echoBefore) * TICK_MS * 1000;
  echo.kill();
  return { loopMs, roundTripUs: (pingUs + echoUs) / ROUND_TRIPS };
};

export const describeHost = ({ loopMs, roundTripUs }: HostSpeed) =>
  `host: a fixed loop in ${Math.round(loopMs)} ms, a loopback round trip ${Math.round(roundTripUs)} µs of CPU (bench/host-probe.ts)`;

if (import.meta.url === `file://${process.argv[1]}`) console.log(describeHost(await probeHost()));
