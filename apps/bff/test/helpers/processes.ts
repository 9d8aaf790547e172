import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(REPO_ROOT, 'apps/bff/src/main.ts');
const CLI = path.join(REPO_ROOT, 'apps/bff/src/cli/clients.ts');

const baseEnv = (env: Record<string, string>) => {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'warn', PORT: '0', ...env };
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

/** Runs the start command (`src/main.ts`) in its own process and waits for its banner. */
export const startServerProcess = (env: Record<string, string>): Promise<StartedServer> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: REPO_ROOT, env: baseEnv(env) });
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

/** Runs a command to completion and answers its exit code and output. */
export const runProcess = (
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, env: baseEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

export const runCli = (args: string[], env: Record<string, string>) => runProcess([CLI, ...args], env);
export const runMain = (env: Record<string, string>) => runProcess([MAIN], env);

export interface StartedProcess {
  child: ChildProcess;
  output: () => string;
  /** The JSON log lines printed so far whose `msg` is `message`. */
  logLines: (message: string) => Record<string, unknown>[];
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** Runs `src/main.ts` (any ROLE) in its own process without waiting for anything: a worker prints no URL. */
export const spawnMain = (env: Record<string, string>): StartedProcess => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { cwd: REPO_ROOT, env: baseEnv(env) });
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
