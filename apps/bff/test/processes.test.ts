import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { checkedFetch } from './helpers/openapi-check.ts';
import { runCli, runMain, startServerProcess } from './helpers/processes.ts';
import { usingPostgres } from './helpers/test-db.ts';

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'credit-data-'));

const tokenFrom = async (url: string, id: string, secret: string) => {
  const res = await checkedFetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
  });
  return { status: res.status, token: ((await res.json()) as { access_token?: string }).access_token };
};

// Each step spawns the built server or CLI (apps/bff/dist, plain node) while Vitest runs another file beside this one
// on a 2-core machine: a bound for a hang, not a speed claim. Each test took 4-27 s (most of it each process opening
// its PGlite) at load 2-9, beside another file or not; under `node --import tsx` they took 5-40 s there, and up to
// 92 s at load 7-9, so the bound was 240 s. On a slower machine (2026-11-27) the CLI's chain of six runs took 51 s
// alone and passed 90 s with a type check running beside the suite, so the bound is 180 s.
const PROCESS_TEST_TIMEOUT_MS = 180_000;

// The start command's tests and the CLI's spawn processes on data folders (or schemas) of their own, so they run
// side by side (each describe is concurrent): while one waits for a spawned process to start (PGlite), another's
// process takes the machine's other core.
describe('the start command', { timeout: PROCESS_TEST_TIMEOUT_MS, concurrent: true }, () => {
  describe.sequential('one process start after another', () => {
    // The test context's `expect`: the global one finds its test through a global that another concurrent test of this
    // file resets when it ends, after which `expect.poll` throws "must be called inside a test" (CI, 2026-11-28).
    it('starts on PGlite, prints URL and credentials once, keeps data across restarts, and refuses a second process', async ({
      expect,
    }) => {
      const DATA_DIR = freshDir();
      const first = await startServerProcess({ DATA_DIR });
      expect(first.output()).toMatch(/Reference:\s+http:\/\/127\.0\.0\.1:\d+\/docs/);
      expect(first.clientId).toMatch(/^cli_sbx_/);
      expect(first.clientSecret).toMatch(/^sk_/);
      const { status, token } = await tokenFrom(first.url, first.clientId, first.clientSecret as string);
      expect(status).toBe(200);
      const enrolled = await checkedFetch(`${first.url}/v1/users/enroll`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          externalUserId: 'restart-1',
          email: 'r@example.test',
          firstName: 'R',
          lastName: 'S',
          ssn: '1111',
          dateOfBirth: '1980-01-01',
          address: { street: '1 A St', city: 'B', state: 'CA', zipCode: '90001' },
        }),
      });
      expect(enrolled.status).toBe(201);

      // Log lines are written in batches (logger.ts); at light traffic a line still shows within the flush interval,
      // while the server runs. A request without a token answers 401, logged as a warning (LOG_LEVEL=warn here).
      await checkedFetch(`${first.url}/v1/users`, { headers: { 'x-request-id': 'light-traffic-line' } });
      await expect.poll(() => first.output().includes('light-traffic-line'), { timeout: 5000, interval: 50 }).toBe(true);

      const second = await runMain({ DATA_DIR });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/in use by process \d+/);
      expect(await first.stop()).toBe(0);

      const again = await startServerProcess({ DATA_DIR });
      expect(again.clientId).toBe(first.clientId);
      expect(again.clientSecret).toBeUndefined();
      expect(again.output()).toMatch(/rotate-secret/);
      const afterRestart = await tokenFrom(again.url, first.clientId, first.clientSecret as string);
      const users = await checkedFetch(`${again.url}/v1/users?externalUserId=restart-1`, {
        headers: { authorization: `Bearer ${afterRestart.token}` },
      });
      expect(((await users.json()) as { pagination: { total: number } }).pagination.total).toBe(1);
      await again.stop();
    });

    it('uses BOOTSTRAP_CLIENT_ID/SECRET without ever printing the secret', async () => {
      const secret = 'bootstrap-secret-from-the-environment';
      const server = await startServerProcess({
        DATA_DIR: freshDir(),
        BOOTSTRAP_CLIENT_ID: 'cli_sbx_bootstrap01',
        BOOTSTRAP_CLIENT_SECRET: secret,
      });
      expect(server.clientId).toBe('cli_sbx_bootstrap01');
      expect(server.output()).not.toContain(secret);
      expect((await tokenFrom(server.url, 'cli_sbx_bootstrap01', secret)).status).toBe(200);
      await server.stop();
    });

    it.skipIf(!usingPostgres)('runs two instances on one DATABASE_URL as one service (migrations racing)', async () => {
      const schema = `proc_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      const url = new URL(process.env.DATABASE_URL as string);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = {
        DATABASE_URL: url.toString(),
        BOOTSTRAP_CLIENT_ID: 'cli_sbx_shared01',
        BOOTSTRAP_CLIENT_SECRET: 'shared-secret-0123456789',
      };
      try {
        const [one, two] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
        const { token } = await tokenFrom(one.url, 'cli_sbx_shared01', 'shared-secret-0123456789');
        const onTwo = await checkedFetch(`${two.url}/v1/users`, { headers: { authorization: `Bearer ${token}` } });
        expect(onTwo.status).toBe(200);
        await Promise.all([one.stop(), two.stop()]);
      } finally {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    });
  });
});

describe('pnpm clients (CLI)', { timeout: PROCESS_TEST_TIMEOUT_MS, concurrent: true }, () => {
  it('creates, lists, updates and rotates clients, printing secrets only when made', async () => {
    const env = { DATA_DIR: freshDir() };
    const created = await runCli(
      ['create', '--name', 'First Bank', '--email', 'ops@firstbank.test', '--scopes', 'read,offers'],
      env,
    );
    expect(created.code).toBe(0);
    const client = JSON.parse(created.stdout);
    expect(client).toMatchObject({
      clientId: expect.stringMatching(/^cli_sbx_/),
      scopes: ['read', 'offers'],
      clientSecret: expect.stringMatching(/^sk_/),
    });

    const listed = await runCli(['list'], env);
    expect(listed.stdout).toContain(client.clientId);
    expect(listed.stdout).not.toContain(client.clientSecret);
    expect(listed.stdout).not.toMatch(/scrypt|secret_hash|secretHash/);

    const updated = await runCli(
      ['update', client.clientId, '--ip-allowlist', '203.0.113.0/24', '--rate-limit-user-ops', '5000'],
      env,
    );
    expect(JSON.parse(updated.stdout)).toMatchObject({ ipAllowlist: ['203.0.113.0/24'], rateLimits: { userOps: 5000 } });

    const rotated = await runCli(['rotate-secret', client.clientId], env);
    const { clientSecret } = JSON.parse(rotated.stdout);
    expect(clientSecret).toMatch(/^sk_/);
    expect(clientSecret).not.toBe(client.clientSecret);
  });

  // Beside the chain above (its own data folder), so neither chain is six process starts long.
  it('refuses a bad CIDR and an unknown scope, exiting 1 with the reason', async () => {
    const env = { DATA_DIR: freshDir() };
    const created = await runCli(['create', '--name', 'Second Bank', '--email', 'ops@second.test'], env);
    expect(created.code, created.stderr).toBe(0);
    const { clientId } = JSON.parse(created.stdout);
    const bad = await runCli(['update', clientId, '--ip-allowlist', '10.0.0.0/33'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Not an IP address or CIDR: 10\.0\.0\.0\/33/);
    const unknown = await runCli(['create', '--name', 'X', '--email', 'x@y.test', '--scopes', 'read,root'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Unknown scopes: root/);
  });
});
