import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { builtEntry } from './server-build.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = builtEntry('main');
const CLI = builtEntry('cli/clients');

const baseEnv = (env: Record<string, string>) => {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  // Receivers run on this machine, as with `pnpm start` (which turns loopback delivery on).
  return { ...inherited, LOG_LEVEL: 'warn', PORT: '0', WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true', ...env };
};

/**
 * `node --enable-source-maps <file> …args`, as `pnpm start` and the CLIs' scripts run apps/bff/dist: the build that
 * `pnpm build` makes, or that server-build.ts (Vitest's globalSetup) makes when it is missing or out of date.
 */
export const spawnBuilt = (file: string, args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams => {
  if (!existsSync(file)) {
    throw new Error(
      `${path.relative(REPO_ROOT, file)} is missing: run \`pnpm build\` (or Vitest with vitest.config.ts, which builds it)`,
    );
  }
  return spawn(process.execPath, ['--enable-source-maps', file, ...args], { cwd: REPO_ROOT, env: baseEnv(env) });
};

export interface StartedServer {
  child: ChildProcess;
  output: () => string;
  url: string;
  clientId: string;
  /** Present only when the server generated the secret and printed it. */
  clientSecret?: string;
  stop(): Promise<number | null>;
}

/** Runs the start command (`dist/main.js`) in its own process and waits for its banner. */
export const startServerProcess = (env: Record<string, string>): Promise<StartedServer> =>
  new Promise((resolve, reject) => {
    const child = spawnBuilt(MAIN, [], env);
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /API:\s+(\S+?)(?:\/v1)?\s/.exec(output)?.[1];
      const clientId = /Client id:\s+(\S+)/.exec(output)?.[1];
      if (url && clientId && /Client secret:.*\n/.test(output)) {
        resolve({
          child,
          output: () => output,
          url,
          clientId,
          clientSecret: /Client secret:\s+(sk_\S+)/.exec(output)?.[1],
          stop: () =>
            new Promise((done) => {
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before starting:\n${output}`)));
  });

/** Runs a built entry point (`builtEntry(…)`) with `args` to completion and answers its exit code and output. */
export const runProcess = (
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawnBuilt(file, args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    // 'close', not 'exit': a child's last output can still be in its pipes when it has exited.
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });

export const runCli = (args: string[], env: Record<string, string>) => runProcess(CLI, args, env);
export const runMain = (env: Record<string, string>) => runProcess(MAIN, [], env);

export interface StartedProcess {
  child: ChildProcess;
  output: () => string;
  /** The JSON log lines printed so far whose `msg` is `message`. */
  logLines: (message: string) => Record<string, unknown>[];
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** Runs `dist/main.js` (any ROLE) in its own process without waiting for anything: a worker prints no URL. */
export const spawnMain = (env: Record<string, string>): StartedProcess => {
  const child = spawnBuilt(MAIN, [], env);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    logLines: (message) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{') && line.includes(`"msg":"${message}"`))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
};
