import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CreditClient } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBanner } from '../src/banner.ts';
import type { ClientRecord } from '../src/core/principal.ts';
import { DEFAULT_BANK_NAME, ensureBootstrapClient, findClient } from '../src/modules/clients/service.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/**
 * Issue 23, the quickstart: `start` prints `export CREDIT_API_URL=… CREDIT_CLIENT_ID=… CREDIT_CLIENT_SECRET=…` for the
 * partner's own client, with the base URL the SDK wants (not `…/v1`, which answered `No route POST /v1/oauth/token`).
 */
const run = promisify(execFile);

let app: TestApp;
let client: TestClient;
let record: ClientRecord;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  record = (await findClient(app.db, client.id)) as ClientRecord;
});
afterAll(() => app.close());

/** The banner's `CREDIT_` export line pasted into bash, as the partner does: what the variables hold afterwards. */
const pasted = async (banner: string): Promise<Record<string, string>> => {
  const lines = banner.split('\n').filter((line) => /^\s+export CREDIT_/.test(line));
  expect(lines).toHaveLength(1);
  const { stdout } = await run('bash', [
    '-ec',
    `${lines[0]}\nprintf '%s\\n' "$CREDIT_API_URL" "$CREDIT_CLIENT_ID" "\${CREDIT_CLIENT_SECRET-}"`,
  ]);
  const [url = '', id = '', secret = ''] = stdout.split('\n');
  return { CREDIT_API_URL: url, CREDIT_CLIENT_ID: id, CREDIT_CLIENT_SECRET: secret };
};

describe('the start banner', () => {
  it('prints the partner’s own client as the SDK reads it, and the SDK works with it as printed', async () => {
    const banner = startBanner({
      url: app.url,
      outcome: { kind: 'generated', client: record, secret: client.secret },
      role: 'all',
      env: 'sandbox',
    });
    const env = await pasted(banner);
    expect(env).toEqual({ CREDIT_API_URL: app.url, CREDIT_CLIENT_ID: client.id, CREDIT_CLIENT_SECRET: client.secret });
    expect(env.CREDIT_API_URL).not.toMatch(/\/v1$/);

    // What docs/partner/quickstart.md does with them.
    const credit = new CreditClient({
      baseUrl: env.CREDIT_API_URL as string,
      clientId: env.CREDIT_CLIENT_ID as string,
      clientSecret: env.CREDIT_CLIENT_SECRET as string,
    });
    const page = await credit.call('listUsers', { query: { limit: 1 } });
    expect(page.pagination.total).toBeGreaterThanOrEqual(0);

    // The API line names the same base URL, and says where /v1 and the port come from.
    expect(banner).toContain(`  API:           ${app.url}   (the SDK's baseUrl; every route starts with /v1; port from PORT)`);
  });

  it('with the base URL printed before, …/v1, the SDK’s token call was what failed', async () => {
    const credit = new CreditClient({
      baseUrl: `${app.url}/v1`,
      clientId: client.id,
      clientSecret: client.secret,
      maxRetries: 0,
    });
    await expect(credit.call('listUsers', { query: { limit: 1 } })).rejects.toThrow('No route POST /v1/oauth/token');
  });

  it('on later starts prints the id and how to get a new secret, never a stale or configured secret', async () => {
    const later = startBanner({ url: app.url, outcome: { kind: 'existing', client: record }, role: 'all', env: 'sandbox' });
    expect(later).toContain(`pnpm clients rotate-secret ${client.id}`);
    expect(await pasted(later)).toEqual({ CREDIT_API_URL: app.url, CREDIT_CLIENT_ID: client.id, CREDIT_CLIENT_SECRET: '' });

    const configured = startBanner({
      url: app.url,
      outcome: { kind: 'configured', client: record },
      role: 'all',
      env: 'sandbox',
    });
    expect(configured).toContain('CREDIT_CLIENT_SECRET: the BOOTSTRAP_CLIENT_SECRET you set');
    expect(configured).not.toContain(client.secret);
    expect((await pasted(configured)).CREDIT_CLIENT_SECRET).toBe('');
  });

  it('says where the demo bank’s port comes from', () => {
    const banner = startBanner({
      url: app.url,
      outcome: { kind: 'existing', client: record },
      role: 'all',
      env: 'sandbox',
      demo: {
        url: 'http://localhost:3001',
        clientId: 'cli_sbx_demo_maple_bank',
        clientSecret: 'sk_demo_x',
        close: async () => {},
      },
    });
    expect(banner).toContain(
      '  Demo bank:     http://localhost:3001   (open it: a partner page embedding the widget; port from DEMO_PORT)',
    );
    // The partner's own client comes before the demo's curl lines, which stay last.
    expect(banner.indexOf('export CREDIT_API_URL')).toBeLessThan(banner.indexOf('export CLIENT_ID'));
    expect(banner.trimEnd().endsWith('"$API/v1/users"')).toBe(true);
  });

  it('names the bank as the operator says at start, and says how to change it', async () => {
    const first = await ensureBootstrapClient(app.db, app.clock, { email: 'ops@first.test', name: 'First Bank' });
    expect(first.client.name).toBe('First Bank');
    const banner = startBanner({ url: app.url, outcome: first, role: 'all', env: 'sandbox' });
    expect(banner).toContain('Bank name:     First Bank');
    expect(banner).toContain('BOOTSTRAP_CLIENT_NAME="First Bank" pnpm start');

    const renamed = await ensureBootstrapClient(app.db, app.clock, { email: 'ops@first.test', name: 'Second Bank' });
    expect(renamed).toMatchObject({ kind: 'existing', client: { id: first.client.id, name: 'Second Bank' } });
    const unnamed = await ensureBootstrapClient(app.db, app.clock, { email: 'ops@first.test' });
    expect(unnamed.client.name).toBe('Second Bank');
    expect(DEFAULT_BANK_NAME).not.toMatch(/bootstrap|client/i);
  });
});
