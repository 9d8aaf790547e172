import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeClient } from '../src/modules/clients/service.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';
import { runCli } from './helpers/processes.ts';

const PARTNER = 'https://www.maple-bank.example';

let app: TestApp;
let counter = 0;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** What a widget frame of `clientId` is told at its session exchange. */
const sessionDisclosure = async (client: { id: string; secret: string }) => {
  counter += 1;
  const userToken = await app.userToken(await app.token(client), `disclosure-cust-${counter}`);
  const res = await app.request('POST', '/widget/session', { token: userToken, body: { parentOrigin: PARTNER } });
  expect(res.status).toBe(201);
  return res.body.data.disclosure as string;
};

describe('the disclosure setting reaches the widget session', () => {
  it('is none for a new client, and follows the operator’s change on the next session', async () => {
    const client = await app.createClient({ embedOrigins: [PARTNER] });
    expect(await sessionDisclosure(client)).toBe('none');

    await changeClient(app.db, client.id, { widgetDisclosure: 'band' });
    // As the CLI does from another process: every instance drops its cached tokens of the client.
    await app.invalidationsArrived();
    expect(await sessionDisclosure(client)).toBe('band');

    await changeClient(app.db, client.id, { widgetDisclosure: 'exact' });
    await app.invalidationsArrived();
    expect(await sessionDisclosure(client)).toBe('exact');
  });

  it('is each client’s own', async () => {
    const exact = await app.createClient({ embedOrigins: [PARTNER], widgetDisclosure: 'exact' });
    const quiet = await app.createClient({ embedOrigins: [PARTNER] });
    expect(await sessionDisclosure(exact)).toBe('exact');
    expect(await sessionDisclosure(quiet)).toBe('none');
  });

  it('refuses a value it does not know, and leaves the setting as it was', async () => {
    const client = await app.createClient({ embedOrigins: [PARTNER], widgetDisclosure: 'band' });
    await expect(changeClient(app.db, client.id, { widgetDisclosure: 'all' as 'band' })).rejects.toThrow(
      /Unknown widget disclosure: all/,
    );
    expect(await sessionDisclosure(client)).toBe('band');
  });
});

describe('the consent facts the widget shows before enrolment', () => {
  it('come from the server: the current terms version, how long and how often, and the partner by name', async () => {
    const client = await app.createClient({ embedOrigins: [PARTNER], name: 'Maple Bank' });
    const userToken = await app.userToken(await app.token(client), 'consent-facts-cust');
    const res = await app.request('POST', '/widget/session', { token: userToken, body: { parentOrigin: PARTNER } });
    expect(res.status).toBe(201);
    expect(res.body.data.consentTerms).toEqual({
      termsVersion: app.ctx.config.CONSENT_TERMS_VERSION,
      validityDays: 365,
      refreshIntervalDays: 30,
      partnerName: 'Maple Bank',
    });
  });
});

// Five runs of the built CLI: 7-14 s at load 2-9.
describe('pnpm clients --widget-disclosure', { timeout: 60_000 }, () => {
  it('creates with none by default, sets band or exact, shows it, and refuses anything else', async () => {
    const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'credit-data-')) };
    const created = await runCli(['create', '--name', 'First Bank', '--email', 'ops@firstbank.test'], env);
    expect(created.code).toBe(0);
    const client = JSON.parse(created.stdout);
    expect(client.widgetDisclosure).toBe('none');

    const updated = await runCli(['update', client.clientId, '--widget-disclosure', 'band'], env);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout).widgetDisclosure).toBe('band');

    const shown = await runCli(['show', client.clientId], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ clientId: client.clientId, widgetDisclosure: 'band' });
    expect(shown.stdout).not.toContain(client.clientSecret);

    const bad = await runCli(['update', client.clientId, '--widget-disclosure', 'score'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--widget-disclosure is one of none, band, exact, not score/);
    const after = await runCli(['show', client.clientId], env);
    expect(JSON.parse(after.stdout).widgetDisclosure).toBe('band');
  });
});
