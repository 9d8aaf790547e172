import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startDispatcher } from '../../../apps/bff/src/modules/webhooks/dispatcher.ts';
import { startTestApp, type TestApp, type TestClient } from '../../../apps/bff/test/helpers/harness.ts';
import { type Receiver, startReceiver } from '../../../apps/bff/test/helpers/webhook-receiver.ts';
import { openPage, sharedBrowser } from '../../../e2e/src/browser.ts';
import { assertBuilt } from '../../../e2e/src/built-files.ts';
import { type Customer, enrolCustomer } from '../src/enrol-customer.ts';
import { verifyInSandbox } from '../src/verify-in-sandbox.ts';

/**
 * The partner kit as a bank's engineer gets it (issue 23, docs/partner/install.md): the tarballs `pnpm release:pack`
 * writes (publint and attw run on each), installed with npm into a new project in the system's temp folder, far from
 * this workspace; the quickstart's samples copied into it, type-checked by the `tsconfig.json` that `tsc --init` writes
 * (strict, exactOptionalPropertyTypes, NodeNext) and run by plain `node` against a live API; the React sample bundled
 * by esbuild and rendered by Chromium. npm reaches only the registry (its cache first) and the local tarballs.
 */
const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(repo, file), 'utf8'));
// The tools a partner would install, at the versions this workspace uses.
const samples = readJson('docs/samples/package.json');
const TOOLS = [
  `typescript@${readJson('package.json').devDependencies.typescript}`,
  `esbuild@${readJson('packages/sdk/package.json').devDependencies.esbuild}`,
  ...['react', 'react-dom', '@types/react', '@types/react-dom', 'standardwebhooks'].map(
    (name) => `${name}@${samples.devDependencies[name]}`,
  ),
];
// A partner's shell: none of the variables pnpm or vitest set for this workspace.
const partnerEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_|NODE_OPTIONS$|NODE_PATH$|VITEST|TSX)/i.test(key)),
);

let workDir: string;
let project: string;
let app: TestApp;
let client: TestClient;
let receiver: Receiver;
let dispatcher: Dispatcher;
let browser: Browser;
let typecheck: { code: number; output: string };
/** What the quickstart made: the recovery test goes on with its user and webhook. */
let quickstart: { userId: string; webhookId: string };

/** A command in the partner's project; answers its stdout, throws with its output when it fails. */
const inProject = async (command: string, args: string[], env: Record<string, string> = {}) => {
  const { stdout } = await run(command, args, { cwd: project, env: { ...partnerEnv, ...env }, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
};
const bin = (name: string) => path.join(project, 'node_modules/.bin', name);

/** The partner's project: the tarballs installed, the samples copied in, `tsc --init`, then tsc (which also emits). */
const setUpPartnerProject = async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'partner-kit-'));
  project = path.join(workDir, 'partner-app');
  mkdirSync(project);
  const packed = JSON.parse(
    (await run(process.execPath, ['scripts/release-pack.mjs', '--out', path.join(workDir, 'tarballs'), '--json'], { cwd: repo }))
      .stdout,
  ) as { name: string; tarball: string }[];
  expect(packed.map((pkg) => pkg.name).sort()).toEqual(['@credit/contract', '@credit/react', '@credit/sdk']);

  writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'partner-app', private: true, type: 'module' })}\n`,
  );
  cpSync(path.join(repo, 'docs/samples/src'), path.join(project, 'src'), { recursive: true });
  // The partner's own files beside the samples (docs/partner/install.md shows them): two scripts and a page script.
  cpSync(path.join(repo, 'docs/samples/kit'), project, { recursive: true });
  writeFileSync(path.join(project, 'internal-operations.ts'), INTERNAL_OPERATIONS_PROBE);
  await inProject('npm', [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...packed.map((pkg) => pkg.tarball),
    ...TOOLS,
  ]);
  await inProject(bin('tsc'), ['--init']);
  typecheck = await run(bin('tsc'), ['-p', '.'], { cwd: project, env: partnerEnv }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
};

/** The live API (with a real HTTPS webhook receiver) and Chromium, started while the kit is packed and installed. */
const startServers = async () => {
  receiver = await startReceiver();
  app = await startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile } });
  dispatcher = startDispatcher(app.ctx, { poll: false });
  client = await app.createClient({ embedOrigins: ['http://localhost:*'] });
  browser = await sharedBrowser();
};

beforeAll(async () => {
  assertBuilt();
  await Promise.all([setUpPartnerProject(), startServers()]);
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await dispatcher?.stop();
  await app?.close();
  await receiver?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const credentials = () => ({ CREDIT_API_URL: app.url, CREDIT_CLIENT_ID: client.id, CREDIT_CLIENT_SECRET: client.secret });

describe('the partner kit, installed with npm outside the workspace', () => {
  it('installs from the tarballs: built JavaScript and declarations, nothing of the workspace', () => {
    const installed = (name: string) =>
      JSON.parse(readFileSync(path.join(project, 'node_modules', name, 'package.json'), 'utf8'));
    const sdk = installed('@credit/sdk');
    expect(sdk.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(sdk.dependencies['@credit/contract']).toBe(installed('@credit/contract').version);
    expect(installed('@credit/react').dependencies).toBeUndefined();
  });

  it('type-checks the samples under the config `tsc --init` writes (strict, exactOptionalPropertyTypes)', () => {
    const config = readFileSync(path.join(project, 'tsconfig.json'), 'utf8');
    expect(config).toMatch(/^\s*"exactOptionalPropertyTypes": true/m);
    expect(config).toMatch(/^\s*"strict": true/m);
    expect(typecheck).toEqual({ code: 0, output: '' });
  });

  it('offers no internal operation: the token exchange and the widget session are not callable by id', () => {
    // The probe's @ts-expect-error lines would be unused (an error of their own) if the operations were public.
    expect(readFileSync(path.join(project, 'internal-operations.ts'), 'utf8')).toContain('@ts-expect-error');
    expect(typecheck.output).not.toContain('internal-operations.ts');
  });

  it('runs the quickstart with plain node: enrol, verify, score, user token, webhook subscription', async () => {
    const result = JSON.parse(
      await inProject(process.execPath, ['quickstart.mjs'], {
        ...credentials(),
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SIGNING_SECRET,
      }),
    );
    expect(result.userId).toMatch(/^usr_/);
    expect(result.verified).toBe(true);
    expect(result.score).toMatch(/^\d{3} \((poor|fair|good|very_good|excellent)\), (stable|(up|down) \d+ points) over 3 months$/);
    expect(result.active).toEqual(['cust-kit-1']);
    expect(result.userToken).toMatch(/^ut_sbx_/);
    expect(result.webhookId).toMatch(/^wh_/);
    quickstart = result;

    // The API sends a signed score.changed; the webhook sample, under plain node, verifies and reads it against the
    // real clock. The app's test clock stood still while the kit was packed and installed (minutes on a busy
    // machine, past the 300 s signature tolerance): it is set to real time first, as a live API's would be.
    app.clock.set(new Date());
    const sdk = app.sdk(client);
    const current = await sdk.call('getCreditScore', { params: { userId: result.userId } });
    await sdk.call('sandboxRefreshScore', {
      params: { userId: result.userId },
      body: { score: current.score > 700 ? current.score - 40 : current.score + 40 },
    });
    await dispatcher.runOnce();
    const delivery = receiver.received.find((received) => JSON.parse(received.raw).type === 'score.changed');
    writeFileSync(path.join(project, 'delivery.json'), delivery?.raw ?? '');
    const handled = await inProject(process.execPath, ['handle-webhook.mjs'], {
      SIGNATURE: String(delivery?.headers['x-service-signature']),
      WEBHOOK_SIGNING_SECRET,
    });
    expect(handled.trim()).toMatch(/^score of cust-kit-1 went (up|down) to \d{3}$/);
  });

  it('recovers after an outage: every event arrives once, verified by standardwebhooks and by the SDK', async () => {
    const sdk = app.sdk(client);
    const { userId, webhookId } = quickstart;
    // What the quickstart's subscription asked for (subscribe-webhooks.ts): score changes and alerts.
    const subscribed = async () =>
      (await sdk.call('listEvents', { query: { userId, limit: 100 } })).data
        .filter((event) => event.type === 'score.changed' || event.type === 'alert.created')
        .map((event) => event.id);
    const before = new Set(await subscribed());
    const outageBegan = app.clock.now();
    receiver.respond = 500;
    receiver.received.length = 0;
    for (const score of [650, 690]) await sdk.call('sandboxRefreshScore', { params: { userId }, body: { score } });
    // The receiver answers 500 through the whole schedule (now, then 1 min, 5 min, 30 min, 2 h and 24 h later).
    await dispatcher.runOnce();
    for (const minutes of [1, 5, 30, 120, 1440]) {
      app.clock.advance(minutes * 60_000);
      await dispatcher.runOnce();
    }
    expect((await sdk.call('getWebhook', { params: { webhookId } })).status).toBe('failed');
    await sdk.call('sandboxRefreshScore', { params: { userId }, body: { score: 720 } }); // never sent while failed
    const missed = (await subscribed()).filter((id) => !before.has(id));
    expect(missed.length).toBeGreaterThanOrEqual(3);

    // The partner's library checks each timestamp against its own clock: the API's returns to real time first.
    app.clock.set(new Date());
    receiver.respond = 200;
    receiver.received.length = 0;
    const recovered = JSON.parse(
      await inProject(process.execPath, ['recover.mjs', webhookId, outageBegan.toISOString()], credentials()),
    );
    expect(recovered).toEqual({ wasStatus: 'failed', queued: missed.length });
    await dispatcher.runOnce();
    await dispatcher.runOnce();
    const deliveries = receiver.received.map(({ raw, headers }) => ({
      raw,
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])),
    }));
    expect(deliveries).toHaveLength(missed.length);
    writeFileSync(path.join(project, 'deliveries.json'), JSON.stringify(deliveries));
    const verified = JSON.parse(await inProject(process.execPath, ['check-deliveries.mjs'], { WEBHOOK_SIGNING_SECRET }));
    expect(verified.sort()).toEqual(missed.sort());
  });

  it('loads from CommonJS too (require of the ESM build, Node 20.19+)', async () => {
    const answer = await inProject(process.execPath, [
      '-e',
      "const { CreditClient } = require('@credit/sdk'); const { constructEvent } = require('@credit/sdk/webhooks'); console.log(typeof CreditClient, typeof constructEvent)",
    ]);
    expect(answer.trim()).toBe('function function');
  });

  it('bundles the React sample with esbuild and renders the widget in Chromium', { timeout: 60_000 }, async () => {
    await inProject(bin('esbuild'), ['app.tsx', '--bundle', '--minify', '--format=esm', '--outfile=public/app.js']);
    const bundle = readFileSync(path.join(project, 'public/app.js'));
    const credit = app.sdk(client);
    const customer = CUSTOMER;
    const userId = await enrolCustomer(credit, customer);
    expect(await verifyInSandbox(credit, userId)).toBe(true);
    const { score } = await credit.call('getCreditScore', { params: { userId } });

    // The partner's web server: the page, its bundle, and the route that mints the signed-in customer's user token.
    const server = http.createServer(async (req, res) => {
      if (req.url === '/app.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      } else if (req.method === 'POST' && req.url === '/credit/user-token') {
        const { userToken } = await credit.mintUserToken({
          externalUserId: customer.id,
          email: customer.email,
          firstName: customer.firstName,
          lastName: customer.lastName,
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ userToken }));
      } else {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(app.url));
      }
    });
    await new Promise<void>((listening) => server.listen(0, 'localhost', listening));
    const { context, page, problems } = await openPage(browser);
    try {
      await page.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
      // The widget's Score tab, in the frame the component created, shows the customer's score.
      await page
        .frameLocator('iframe[src*="/widget"]')
        .getByRole('tabpanel')
        .getByText(String(score), { exact: true })
        .first()
        .waitFor();
      await page.waitForFunction(() => (window as unknown as { partnerEvents: string[] }).partnerEvents.includes('ready'));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      server.closeAllConnections();
      server.close();
    }
  });
});

// Chosen in the Standard Webhooks form (`whsec_` + base64 of 32 bytes), as `createWebhook` generates one, so the
// library's defaults verify (check-deliveries.mjs).
const WEBHOOK_SIGNING_SECRET = 'whsec_cGFydG5lci1raXQtc2lnbmluZy1zZWNyZXQtMDEyMyE=';
/** The React test's customer; the quickstart's (cust-kit-1) is in docs/samples/kit/quickstart.mjs. */
const CUSTOMER: Customer = {
  id: 'cust-kit-react',
  email: 'jane@example.com',
  firstName: 'Jane',
  lastName: 'Doe',
  ssnLast4: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
};

/** Type-level probe of the published SDK: what a partner's editor offers as operation ids. */
const INTERNAL_OPERATIONS_PROBE = `import { CreditClient, type OperationId } from '@credit/sdk';
import { CreditClient as BrowserClient, bearerAuth } from '@credit/sdk/browser';

export const probe = (credit: CreditClient, browser: BrowserClient) => {
  // @ts-expect-error the client exchanges its credentials itself; accessToken() answers the token
  const exchange: OperationId = 'createAccessToken';
  // @ts-expect-error the widget frame's session is the widget's own
  void browser.call('createWidgetSession', { body: { parentOrigin: null } });
  // @ts-expect-error the widget frame's session is the widget's own
  void browser.call('getWidgetSession');
  const publicOperation: OperationId = 'getCreditScore';
  return [exchange, publicOperation, credit.accessToken(), bearerAuth(() => 'ut_sbx_probe')];
};
`;

const pageHtml = (apiUrl: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner bank</title></head>
<body><div id="root" data-api-url="${apiUrl}"></div><script type="module" src="/app.js"></script></body>
</html>`;
