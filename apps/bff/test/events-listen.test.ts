import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constructEvent, signWebhookPayload, verifyWebhook } from '@credit/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListenOptions, listen } from '../../../packages/sdk/src/cli/listen.ts';
import { USER_AGENT } from '../src/modules/webhooks/deliver.ts';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { signatureHeader, standardSignatureHeader } from '../src/modules/webhooks/sign.ts';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { closedPort, type PlainReceiver, startPlainReceiver } from './helpers/http-receiver.ts';

/**
 * `npx credit listen` (packages/sdk/src/cli) against the real API and a real receiver on loopback: every event once,
 * in the order recorded, signed so that `standardwebhooks` (its defaults) and the SDK's verifier accept it, resumed
 * from its state file after a restart with the same secret.
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let app: TestApp;
let dispatcher: Dispatcher;
beforeAll(async () => {
  app = await startTestApp();
  dispatcher = startDispatcher(app.ctx, { poll: false });
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
});

const stateDir = () => mkdtempSync(path.join(tmpdir(), 'credit-listen-'));

const enrol = async (client: TestClient) => {
  const res = await app.request('POST', '/v1/users/enroll', { token: await app.currentToken(client), body: enrollment() });
  expect(res.status).toBe(201);
  return res.body.data.userId as string;
};

const recordedIds = async (client: TestClient, after?: string): Promise<string[]> => {
  const res = await app.request('GET', `/v1/events?${after ? `after=${after}` : 'sort=recorded'}&limit=100`, {
    token: await app.currentToken(client),
  });
  return res.body.data.map((e: { id: string }) => e.id);
};

/** One running `listen`, in this process: its printed lines, and how to stop it. */
const startListening = (client: TestClient, options: Partial<ListenOptions> & { forwardTo: string; statePath: string }) => {
  const lines: string[] = [];
  const stop = new AbortController();
  const done = listen({
    api: app.url,
    clientId: client.id,
    clientSecret: client.secret,
    signal: stop.signal,
    print: (line) => lines.push(line),
    ...options,
  });
  const secret = async () => {
    await expect.poll(() => lines.some((line) => line.startsWith('Ready.')), { timeout: 10_000 }).toBe(true);
    return /whsec_[A-Za-z0-9+/=]+/.exec(lines.find((line) => line.startsWith('Ready.')) as string)?.[0] as string;
  };
  return {
    lines,
    secret,
    done,
    stop: async () => {
      stop.abort();
      await done;
    },
  };
};

/** Checks a forwarded delivery as a partner's endpoint would: both Standard Webhooks ways and the SDK's. */
const verifyDelivery = (delivery: PlainReceiver['received'][number], secret: string) => {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
  const standard = new Webhook(secret).verify(delivery.raw, headers) as { id: string };
  const event = constructEvent(delivery.raw, delivery.headers, secret);
  // The SDK's verifier over the Standard Webhooks headers alone (a receiver that drops X-Service-Signature).
  const { 'x-service-signature': _dropped, ...standardOnly } = delivery.headers;
  verifyWebhook(delivery.raw, standardOnly, secret, { toleranceSec: 300 });
  expect(event.id).toBe(standard.id);
  expect(delivery.headers['webhook-id']).toBe(event.id);
  return event;
};

describe('credit listen', () => {
  it('forwards each new event once, in order, signed as a delivery, and resumes after a restart with the same secret', async () => {
    const client = await app.createClient();
    const receiver = await startPlainReceiver();
    const statePath = path.join(stateDir(), 'state.json');
    try {
      await enrol(client); // before the first start: not forwarded, the first start begins at the latest event
      // Listed in the recorded order once the transactions begun before it ended (PostgreSQL, other files writing).
      await expect.poll(async () => (await recordedIds(client)).length, { timeout: 10_000 }).toBe(1);
      const [before] = await recordedIds(client);
      const first = startListening(client, { forwardTo: `${receiver.origin}/webhooks`, statePath });
      const secret = await first.secret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);

      for (let i = 0; i < 3; i++) await enrol(client);
      await expect.poll(async () => (await recordedIds(client, before)).length, { timeout: 10_000 }).toBe(3);
      const expected = await recordedIds(client, before);
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(3);
      expect(receiver.received.map((d) => verifyDelivery(d, secret).id)).toEqual(expected);
      expect(receiver.received.every((d) => d.path === '/webhooks')).toBe(true);
      for (const id of expected) {
        expect(
          first.lines.some(
            (line) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}--> user\.enrolled \[/.test(line) && line.endsWith(`[${id}]`),
          ),
        ).toBe(true);
        expect(first.lines).toContainEqual(
          expect.stringMatching(new RegExp(`  <-- \\[200\\] POST ${receiver.origin}/webhooks \\[${id}\\]$`)),
        );
      }
      await first.stop();
      const saved = JSON.parse(readFileSync(statePath, 'utf8'));
      expect(saved).toMatchObject({ secret, after: expected.at(-1), clientId: client.id });

      // While it is stopped, two more; the restart forwards exactly those, with the same secret.
      const missed = [await enrol(client), await enrol(client)];
      const second = startListening(client, { forwardTo: `${receiver.origin}/webhooks`, statePath });
      expect(await second.secret()).toBe(secret);
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(5);
      const resumed = receiver.received.slice(3).map((d) => verifyDelivery(d, secret));
      expect(resumed.map((e) => (e.data as { userId: string }).userId)).toEqual(missed);
      expect(new Set(receiver.received.map((d) => d.headers['webhook-id'])).size).toBe(5);
      // Nothing more arrives while it waits.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(5);
      await second.stop();
    } finally {
      await receiver.close();
    }
  });

  it('sends the bytes and the headers a real delivery sends', async () => {
    const client = await app.createClient();
    const receiver = await startPlainReceiver();
    const statePath = path.join(stateDir(), 'state.json');
    try {
      const hook = await app.request('POST', '/v1/webhooks', {
        token: await app.currentToken(client),
        body: { url: `${receiver.origin}/real`, events: ['user.enrolled'], secret: 'whsec_listen_compare_0123456789' },
      });
      expect(hook.status).toBe(201);
      const listening = startListening(client, { forwardTo: `${receiver.origin}/listen`, statePath });
      await listening.secret();
      await enrol(client);
      await dispatcher.runOnce();
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(2);
      const real = receiver.received.find((d) => d.path === '/real');
      const forwarded = receiver.received.find((d) => d.path === '/listen');
      expect(forwarded?.raw).toBe(real?.raw);
      const names = (d: typeof real) =>
        Object.keys(d?.headers ?? {})
          .filter((n) => !['host', 'connection'].includes(n))
          .sort();
      expect(names(forwarded)).toEqual(names(real));
      for (const name of ['user-agent', 'content-type', 'webhook-id', 'x-service-event-id']) {
        expect(forwarded?.headers[name], name).toBe(real?.headers[name]);
      }
      await listening.stop();
    } finally {
      await receiver.close();
    }
  });

  it('forwards only the --events asked for, and moves past the others', async () => {
    const client = await app.createClient();
    const receiver = await startPlainReceiver();
    const statePath = path.join(stateDir(), 'state.json');
    try {
      const listening = startListening(client, { forwardTo: receiver.origin, statePath, events: ['user.deleted'] });
      const secret = await listening.secret();
      const userId = await enrol(client);
      expect((await app.request('DELETE', `/v1/users/${userId}`, { token: await app.currentToken(client) })).status).toBe(200);
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
      const event = verifyDelivery(receiver.received[0] as PlainReceiver['received'][number], secret);
      expect(event).toMatchObject({ type: 'user.deleted', data: { userId } });
      await listening.stop();
      const all = await recordedIds(client);
      expect(JSON.parse(readFileSync(statePath, 'utf8')).after).toBe(all.at(-1));
      expect(listening.lines.some((line) => line.includes('--> user.enrolled'))).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('prints a receiver’s 500 and a refused connection, and keeps going', async () => {
    const client = await app.createClient();
    const receiver = await startPlainReceiver();
    receiver.status = 500;
    const refusing = `http://127.0.0.1:${await closedPort()}/hooks`;
    try {
      const failing = startListening(client, {
        forwardTo: `${receiver.origin}/hooks`,
        statePath: path.join(stateDir(), 's.json'),
      });
      const down = startListening(client, { forwardTo: refusing, statePath: path.join(stateDir(), 's.json') });
      await failing.secret();
      await down.secret();
      await enrol(client);
      await expect
        .poll(() => failing.lines.filter((line) => line.includes('<-- [500] POST')).length, { timeout: 10_000 })
        .toBe(1);
      receiver.status = 200;
      await enrol(client);
      await expect
        .poll(() => failing.lines.filter((line) => line.includes('<-- [200] POST')).length, { timeout: 10_000 })
        .toBe(1);
      expect(receiver.received).toHaveLength(2);
      await expect.poll(() => down.lines.filter((line) => line.includes('<-- [ERR]')).length, { timeout: 10_000 }).toBe(2);
      expect(down.lines.find((line) => line.includes('<-- [ERR]'))).toContain(`POST ${refusing} [evt_`);
      expect(down.lines.find((line) => line.includes('<-- [ERR]'))).toContain('connection refused');
      await failing.stop();
      await down.stop();
    } finally {
      await receiver.close();
    }
  });

  it('says what is wrong when the credentials are refused or lack the webhooks scope', async () => {
    const client = await app.createClient();
    const statePath = path.join(stateDir(), 'state.json');
    const wrong = listen({
      api: app.url,
      clientId: client.id,
      clientSecret: 'sk_test_not_the_secret_000000',
      forwardTo: 'localhost:4242',
      statePath,
    });
    await expect(wrong).rejects.toThrow(/refused the client credentials \(invalid_client/);
    const readOnly = await app.createClient({ scopes: ['read'] });
    const unscoped = listen({
      api: app.url,
      clientId: readOnly.id,
      clientSecret: readOnly.secret,
      forwardTo: 'localhost:4242',
      statePath,
    });
    await expect(unscoped).rejects.toThrow(/webhooks scope/);
    await expect(
      listen({ api: app.url, clientId: client.id, clientSecret: client.secret, forwardTo: 'ftp://x', statePath }),
    ).rejects.toThrow(/only http:\/\/ and https:\/\//);
    await expect(
      listen({
        api: app.url,
        clientId: client.id,
        clientSecret: client.secret,
        forwardTo: 'localhost:1',
        events: ['score.chnged'],
        statePath,
      }),
    ).rejects.toThrow(/score\.chnged is not an event type/);
  });

  it('runs as the credit command: Ready, forwards, and ^C saves the state and exits 0', async () => {
    const client = await app.createClient();
    const receiver = await startPlainReceiver();
    const config = stateDir();
    try {
      const cli = spawn(
        path.join(repo, 'node_modules/.bin/tsx'),
        [path.join(repo, 'packages/sdk/src/cli/main.ts'), 'listen', '--forward-to', `localhost:${receiver.port}/cli`],
        {
          env: {
            ...process.env,
            CREDIT_API_URL: app.url,
            CREDIT_CLIENT_ID: client.id,
            CREDIT_CLIENT_SECRET: client.secret,
            XDG_CONFIG_HOME: config,
          },
        },
      );
      let out = '';
      cli.stdout.on('data', (chunk) => {
        out += chunk;
      });
      cli.stderr.on('data', (chunk) => {
        out += chunk;
      });
      const exited = new Promise<number | null>((resolve) => cli.on('exit', (code) => resolve(code)));
      await expect.poll(() => out, { timeout: 20_000 }).toContain('(^C to quit)');
      const secret = /whsec_[A-Za-z0-9+/=]+/.exec(out)?.[0] as string;
      await enrol(client);
      await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
      verifyDelivery(receiver.received[0] as PlainReceiver['received'][number], secret);
      await expect.poll(() => out, { timeout: 5_000 }).toContain('<-- [200] POST http://localhost:');
      cli.kill('SIGINT');
      expect(await exited).toBe(0);
      const state = JSON.parse(readFileSync(path.join(config, 'credit', `listen-${client.id}.json`), 'utf8'));
      expect(state).toMatchObject({ secret, after: receiver.received[0]?.headers['webhook-id'] });

      const help = spawn(path.join(repo, 'node_modules/.bin/tsx'), [path.join(repo, 'packages/sdk/src/cli/main.ts'), '--help']);
      let usage = '';
      help.stdout.on('data', (chunk) => {
        usage += chunk;
      });
      expect(await new Promise((resolve) => help.on('exit', resolve))).toBe(0);
      expect(usage).toContain('credit listen --forward-to <url>');

      const missing = spawn(
        path.join(repo, 'node_modules/.bin/tsx'),
        [path.join(repo, 'packages/sdk/src/cli/main.ts'), 'listen', '--forward-to', 'localhost:1'],
        {
          env: { ...process.env, CREDIT_CLIENT_ID: '', CREDIT_CLIENT_SECRET: '' },
        },
      );
      let complaint = '';
      missing.stderr.on('data', (chunk) => {
        complaint += chunk;
      });
      expect(await new Promise((resolve) => missing.on('exit', resolve))).toBe(2);
      expect(complaint).toContain('CREDIT_CLIENT_ID');
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('signs with the SDK’s signWebhookPayload exactly as the server signs, for every kind of secret', () => {
    const body = '{"id":"evt_same0000000000001","type":"user.enrolled"}';
    const generated = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    for (const secrets of [[generated], ['chosen-secret-0123456789'], ['whsec_short'], [generated, 'chosen-secret-0123456789']]) {
      const headers = signWebhookPayload({
        payload: body,
        secret: secrets,
        eventId: 'evt_same0000000000001',
        timestamp: 1_800_000_000,
      });
      expect(headers['x-service-signature']).toBe(signatureHeader(secrets, 1_800_000_000, body));
      expect(headers['webhook-signature']).toBe(standardSignatureHeader(secrets, 'evt_same0000000000001', 1_800_000_000, body));
    }
    expect(signWebhookPayload({ payload: body, secret: generated, eventId: 'evt_x' })['user-agent']).toBe(USER_AGENT);
  });
});
