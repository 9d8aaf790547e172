import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, DIST_DIR } from '../scripts/build.ts';
import type { KitListing } from '../src/modules/kit/listing.ts';
import { productionEnv, startTestApp } from './helpers/harness.ts';
import { type SharedDatabase, sharedDatabase } from './helpers/shared-database.ts';

/**
 * Issue 50: the partner kit from the running product. The server built as `pnpm build` builds it (the kit packed into
 * its kit/ folder, or copied from the packing cache when the packages did not change) and started with plain node;
 * then what a partner does on a machine without this repository: GET /kit, and `npm install` of the command it gives
 * into a new project in the system's temp folder, whose plain `node` imports the SDK and the React bindings.
 */
const OUT_DIR = `${DIST_DIR}.kit-test-${process.pid}`;
const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const versionOf = (dir: string) => JSON.parse(readFileSync(path.join(repo, dir, 'package.json'), 'utf8')).version as string;
// A partner's shell: none of the variables pnpm or vitest set for this workspace.
const partnerEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_|NODE_OPTIONS$|NODE_PATH$|VITEST|TSX)/i.test(key)),
);

let db: SharedDatabase;
let server: ChildProcess | undefined;
let banner = '';
let api = '';
let workDir: string;

/** `node <build>/main.js` until its banner is out. */
const startBuilt = (env: Record<string, string>) =>
  new Promise<void>((resolve, reject) => {
    const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(OUT_DIR, 'main.js')], {
      env: { ...inherited, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', DEMO_PORT: 'off', ...env },
    });
    server = child;
    const timer = setTimeout(() => reject(new Error(`no banner in 90 s:\n${banner}`)), 90_000);
    const onData = (chunk: Buffer) => {
      banner += chunk.toString();
      if (!/Client secret:.*\n/.test(banner)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the built server exited with ${code}:\n${banner}`)));
  });

beforeAll(async () => {
  db = await sharedDatabase('kit');
  // From the cache after `pnpm build` (as `pnpm test` runs it); packing, when the packages changed since, takes 10 s on
  // an idle machine and minutes on a loaded one (72-105 s at load 12-16, over 280 s at load 40).
  await buildServer(OUT_DIR);
  await startBuilt(db.env);
  api = /API:\s+(\S+)/.exec(banner)?.[1] as string;
  workDir = mkdtempSync(path.join(tmpdir(), 'kit-install-'));
}, 600_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server?.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await db?.drop();
  // The staging folder too, if the build was still running when the hook gave up.
  for (const dir of [OUT_DIR, `${OUT_DIR}.building-${process.pid}`]) rmSync(dir, { recursive: true, force: true });
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const listing = async (): Promise<KitListing> => {
  const res = await fetch(`${api}/kit`);
  expect(res.status).toBe(200);
  return (await res.json()) as KitListing;
};

describe('GET /kit on the built server', { timeout: 120_000 }, () => {
  it('lists the three tarballs of this build, and the one install command with absolute URLs, which the banner prints', async () => {
    const kit = await listing();
    expect(kit.packages.map(({ name, version }) => [name, version])).toEqual([
      ['@credit/contract', versionOf('packages/contract')],
      ['@credit/sdk', versionOf('packages/sdk')],
      ['@credit/react', versionOf('packages/react')],
    ]);
    for (const pkg of kit.packages) {
      expect(pkg.url).toBe(`${api}/kit/${pkg.file}`);
      expect(pkg.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
    expect(kit.install).toBe(`npm install ${kit.packages.map((pkg) => pkg.url).join(' ')}`);
    expect(kit.installServer).not.toContain('credit-react');
    expect(banner).toContain(`Partner kit:   ${api}/kit`);
    expect(banner).toContain(`    ${kit.install}\n`);
  });

  it('serves each tarball as listed: its integrity, its package.json, immutable; the package’s name alone redirects to it', async () => {
    const kit = await listing();
    for (const pkg of kit.packages) {
      const res = await fetch(pkg.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/gzip');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(pkg.size);
      expect(`sha512-${createHash('sha512').update(bytes).digest('base64')}`).toBe(pkg.integrity);
      const file = path.join(workDir, pkg.file);
      writeFileSync(file, bytes);
      const manifest = JSON.parse((await run('tar', ['-xzOf', file, 'package/package.json'])).stdout);
      expect([manifest.name, manifest.version]).toEqual([pkg.name, pkg.version]);
      expect(JSON.stringify(manifest)).not.toContain('workspace:');

      const latest = await fetch(pkg.latestUrl, { redirect: 'manual' });
      expect(latest.status).toBe(302);
      expect(latest.headers.get('location')).toBe(`/kit/${pkg.file}`);
      expect(latest.headers.get('cache-control')).toBe('no-cache');
    }
    const unknown = await fetch(`${api}/kit/credit-sdk-0.0.1-000000000000.tgz`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/GET \/kit lists/);
  });

  it('installs with npm into a new project from the served URLs alone; plain node imports the SDK and the widget', async () => {
    const kit = await listing();
    const project = path.join(workDir, 'partner-app');
    await run('mkdir', ['-p', project]);
    writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'partner-app', private: true })}\n`);
    const [npm, ...args] = kit.install.split(' ');
    const started = performance.now();
    // The registry (its cache first) for zod, React and their few dependencies; the kit's three from the API.
    await run(npm as string, [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: project,
      env: partnerEnv,
    });
    const installMs = performance.now() - started;
    const imported = async (name: string) =>
      JSON.parse(
        (
          await run(process.execPath, ['-e', `import('${name}').then((m) => console.log(JSON.stringify(Object.keys(m))))`], {
            cwd: project,
            env: partnerEnv,
          })
        ).stdout,
      ) as string[];
    expect(await imported('@credit/sdk')).toEqual(expect.arrayContaining(['CreditClient', 'CreditApiError']));
    expect(await imported('@credit/sdk/webhooks')).not.toHaveLength(0);
    expect(await imported('@credit/react')).toContain('CreditWidget');
    // What npm wrote: the API's URLs, so the project installs again the same way (and its lockfile pins the bytes).
    const saved = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')).dependencies;
    expect(saved).toEqual(Object.fromEntries(kit.packages.map((pkg) => [pkg.name, pkg.url])));
    const lock = JSON.parse(readFileSync(path.join(project, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/@credit/sdk'].integrity).toBe(kit.packages[1]?.integrity);
    console.log(`npm install from /kit: ${Math.round(installMs)} ms`);
  });
});

describe('GET /kit in production', () => {
  it('is the API’s 404: production serves no packages', async () => {
    const app = await startTestApp({ config: productionEnv() });
    try {
      expect((await fetch(`${app.url}/kit`)).status).toBe(404);
      expect((await fetch(`${app.url}/kit/credit-sdk.tgz`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
