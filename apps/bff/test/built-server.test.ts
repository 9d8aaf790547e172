import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, DIST_DIR } from '../scripts/build.ts';
import { EMBED_SCRIPT_FILE, WIDGET_DIST_DIR } from '../src/modules/widget/static-files.ts';
import { type SharedDatabase, sharedDatabase } from './helpers/shared-database.ts';
import { usingPostgres } from './helpers/test-db.ts';

/**
 * The server as `pnpm start` runs it: bundled by scripts/build.ts and run with plain `node`, no tsx. What only the
 * build can break: files found from the module's own location (the widget's and the loader's builds, Swagger UI's
 * assets, the demo bank's public/ files and React page source), npm packages resolved from the built file's folder,
 * node:cluster forking the built file, and the CLIs. Built here, into a folder of this run's own inside apps/bff (the
 * build must sit there to resolve node_modules) beside dist/, which another run's build may replace meanwhile, from
 * the sources as they are now.
 */
const OUT_DIR = `${DIST_DIR}.test-${process.pid}`;
const run = promisify(execFile);

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const builtEnv = (env: Record<string, string>) => {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', ...env };
};

interface Started {
  child: ChildProcess;
  banner: string;
  stop(): Promise<number | null>;
}

/** Every server this file started: whatever happens to a test, none outlives the file. */
const children = new Set<ChildProcess>();
const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** `node --enable-source-maps <build>/main.js` until its banner is out (killed, and the promise rejected, after 90 s). */
const startBuilt = (env: Record<string, string>): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(OUT_DIR, 'main.js')], { env: builtEnv(env) });
    children.add(child);
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the built server printed no banner in 90 s:\n${output}`));
    }, 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // The banner is one write (the demo bank's line included); its `Client secret:` line is in it at every start.
      if (!/Client secret:.*\n/.test(output)) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        child,
        banner: output,
        stop: () =>
          new Promise((done) => {
            if (!isRunning(child)) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the built server exited with ${code} before its banner:\n${output}`));
    });
  });

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
};

beforeAll(async () => {
  // The widget and the loader come from `pnpm build` (run by `pnpm test`), as for every test serving them.
  const missing = [path.join(WIDGET_DIST_DIR, 'index.html'), EMBED_SCRIPT_FILE].filter((file) => !existsSync(file));
  if (missing.length) throw new Error(`Missing ${missing.join(' and ')}: run \`pnpm build\` first.`);
  await buildServer(OUT_DIR);
});
afterAll(async () => {
  // A server a failed test left running (its API processes stop by themselves once their primary is gone).
  const stopping = [...children].filter(isRunning).map(
    (child) =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(stopping);
  rmSync(OUT_DIR, { recursive: true, force: true });
});

describe('the build', () => {
  it('bundles the start command and the CLIs without tsx’s __name wrappers, with source maps onto src/', () => {
    for (const entry of ['main.js', 'cli/clients.js', 'cli/bureau.js', 'cli/audit.js']) {
      expect(existsSync(path.join(OUT_DIR, entry)), entry).toBe(true);
    }
    const files = [
      'main.js',
      ...readdirSync(path.join(OUT_DIR, 'chunks'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => `chunks/${f}`),
    ];
    for (const file of files) expect(readFileSync(path.join(OUT_DIR, file), 'utf8'), file).not.toMatch(/\b__name\(/);
    const map = JSON.parse(readFileSync(path.join(OUT_DIR, 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources).toContain('../src/main.ts');
    // The workspace packages export .ts sources: bundled, never left to a run-time import Node could not load.
    const code = files.map((file) => readFileSync(path.join(OUT_DIR, file), 'utf8')).join('\n');
    expect(code).not.toMatch(/from\s+["']@credit\//);
  });
});

describe('the built start command', { timeout: 120_000 }, () => {
  let db: SharedDatabase;
  let server: Started | undefined;
  beforeAll(async () => {
    db = await sharedDatabase('built');
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('serves the API, its reference with Swagger UI’s files, the widget, the loader and the demo bank', async () => {
    server = await startBuilt({ ...db.env, DEMO_PORT: String(await freePort()), DEMO_HOST: '127.0.0.1' });
    const api = /API:\s+(\S+?)(?:\/v1)?\s/.exec(server.banner)?.[1] as string;
    const demo = /Demo bank:\s+(\S+)/.exec(server.banner)?.[1] as string;
    expect(api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Without its public/ files (found from the bundle's location) the demo would not start, and the banner says so.
    expect(server.banner).toMatch(/Demo bank:\s+http:\/\/127\.0\.0\.1:\d+/);

    expect((await get(`${api}/health`)).status).toBe(200);
    expect((await get(`${api}/openapi.json`)).body).toContain('"openapi"');
    // docs/routes.ts: swagger-ui-dist resolved from the built file.
    const css = await get(`${api}/docs/assets/swagger-ui.css`);
    expect([css.status, css.type]).toEqual([200, expect.stringContaining('text/css')]);
    // widget/static-files.ts: the workspace root found from the built file.
    const frame = await get(`${api}/widget/`);
    expect(frame.status).toBe(200);
    const script = /src="(\/widget\/assets\/[^"]+\.js)"/.exec(frame.body)?.[1] as string;
    expect(script).toBeDefined();
    expect((await get(`${api}${script}`)).status).toBe(200);
    expect((await get(`${api}/embed.js`)).body).toBe(readFileSync(EMBED_SCRIPT_FILE, 'utf8'));

    // apps/demo, bundled into the build: its public/ files and its React page, bundled at run time from its source.
    const page = await get(`${demo}/?user=built-test`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`${api}/embed.js`);
    expect((await get(`${demo}/demo.css`)).status).toBe(200);
    const react = await get(`${demo}/react-demo.js`);
    expect([react.status, react.type]).toEqual([200, expect.stringContaining('javascript')]);
    expect(react.body.length).toBeGreaterThan(10_000);

    expect(await server.stop()).toBe(0);
    server = undefined;
  });

  it('runs the clients CLI from the build', async () => {
    const { stdout } = await run(process.execPath, ['--enable-source-maps', path.join(OUT_DIR, 'cli/clients.js'), 'list'], {
      env: builtEnv(db.env),
    });
    const clients = JSON.parse(stdout) as { clientId: string }[];
    expect(clients.map((c) => c.clientId)).toContain('cli_sbx_demo_maple_bank');
  });

  it.skipIf(!usingPostgres)('with API_PROCESSES=2, node:cluster forks the built file and both processes answer', async () => {
    server = await startBuilt({ ...db.env, API_PROCESSES: '2', DEMO_PORT: 'off' });
    const api = /API:\s+(\S+?)(?:\/v1)?\s/.exec(server.banner)?.[1] as string;
    expect((await get(`${api}/health`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    server = undefined;
  });
});
