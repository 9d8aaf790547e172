import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deliverer } from '../src/modules/webhooks/deliver.ts';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { FIXED_FAILURE_PHRASES, failureReason, formatTimeout } from '../src/modules/webhooks/failure-reason.ts';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';
import { closedPort, type PlainReceiver, startPlainReceiver } from './helpers/http-receiver.ts';
import { type Receiver, startReceiver } from './helpers/webhook-receiver.ts';

/**
 * Each failed attempt says why in `GET /v1/webhooks/{id}/logs`, against real receivers: a closed port, a self-signed
 * HTTPS receiver the instance does not trust, a plain-HTTP server addressed as https, a slow one and a 500.
 * WEBHOOK_TIMEOUT_MS is short here so the slow receiver costs a fraction of a second.
 */
const TIMEOUT_MS = 400;
const SECRET = 'whsec_reasons_0123456789abcdef';

let app: TestApp;
let selfSigned: Receiver;
let plain: PlainReceiver;
let slow: PlainReceiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  selfSigned = await startReceiver();
  plain = await startPlainReceiver();
  slow = await startPlainReceiver();
  slow.delayMs = 5_000;
  // No WEBHOOK_CA_FILE: the self-signed receiver is not trusted, as on a partner's first try.
  app = await startTestApp({ config: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  dispatcher = startDispatcher(app.ctx, { poll: false });
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
  await selfSigned.close();
  await plain.close();
  await slow.close();
});

const subscribe = async (url: string, events = ['score.changed']) => {
  const token = await app.token(await app.createClient());
  const res = await app.request('POST', '/v1/webhooks', { token, body: { url, events, secret: SECRET } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { token, webhookId: res.body.data.webhookId as string };
};

const testDelivery = async (url: string) => {
  const { token, webhookId } = await subscribe(url);
  const res = await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType: 'score.changed' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const logs = await app.request('GET', `/v1/webhooks/${webhookId}/logs`, { token });
  expect(logs.body.data).toEqual([res.body.data]);
  return res.body.data as { status: string; statusCode: number; error?: string; responseTime: number };
};

describe('the failure reason of a delivery attempt', () => {
  it('says "connection refused" for a closed port', async () => {
    const entry = await testDelivery(`http://127.0.0.1:${await closedPort()}/hooks`);
    expect(entry).toMatchObject({ status: 'failed', statusCode: 0, error: 'connection refused' });
  });

  it('says "tls: self-signed certificate" for a receiver whose certificate the instance does not trust', async () => {
    const entry = await testDelivery(selfSigned.url);
    expect(entry).toMatchObject({ status: 'failed', statusCode: 0, error: 'tls: self-signed certificate' });
    expect(selfSigned.received).toHaveLength(0);
  });

  it('says the TLS handshake failed when https:// points at a plain-HTTP receiver', async () => {
    const entry = await testDelivery(`https://127.0.0.1:${plain.port}/hooks`);
    expect(entry).toMatchObject({ status: 'failed', statusCode: 0 });
    expect(entry.error).toMatch(/^tls: handshake failed/);
  });

  it(`says "timeout after ${TIMEOUT_MS} ms" for a receiver slower than WEBHOOK_TIMEOUT_MS`, async () => {
    const entry = await testDelivery(`${slow.origin}/hooks`);
    expect(entry).toMatchObject({ status: 'failed', statusCode: 0, error: `timeout after ${TIMEOUT_MS} ms` });
    expect(entry.responseTime).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(slow.received).toHaveLength(1);
  });

  it('says "http 500" for a receiver that answers 500, and nothing for a success', async () => {
    plain.status = 500;
    expect(await testDelivery(`${plain.origin}/fails`)).toMatchObject({ status: 'failed', statusCode: 500, error: 'http 500' });
    plain.status = 204;
    const ok = await testDelivery(`${plain.origin}/works`);
    expect(ok).toMatchObject({ status: 'success', statusCode: 204 });
    expect(ok).not.toHaveProperty('error');
    plain.status = 200;
  });

  it('is recorded by the dispatcher for real events and their retries, and filterable with the failed logs', async () => {
    const port = await closedPort();
    const { token, webhookId } = await subscribe(`http://127.0.0.1:${port}/hooks`, ['user.enrolled']);
    const enrolled = await app.request('POST', '/v1/users/enroll', { token, body: enrollment() });
    expect(enrolled.status).toBe(201);
    await dispatcher.runOnce();
    app.clock.advance(60_000);
    await dispatcher.runOnce();
    const logs = await app.request('GET', `/v1/webhooks/${webhookId}/logs?status=failed`, {
      token: await app.token(await app.createClient()),
    });
    // Another client sees nothing of it.
    expect(logs.status).toBe(404);
    const mine = await app.request('GET', `/v1/webhooks/${webhookId}/logs?status=failed`, { token });
    expect(mine.body.data.map((e: { attempt: number; error: string }) => [e.attempt, e.error])).toEqual([
      [2, 'connection refused'],
      [1, 'connection refused'],
    ]);
  });

  it('tells a host that no longer resolves ("dns: host not found") from one resolving to a refused address', async () => {
    // A subscription's host resolved when it was created; its DNS can lapse later. `.invalid` never resolves (RFC 6761).
    const production = new Deliverer({ ...app.ctx.config, APP_ENV: 'production' });
    try {
      const gone = await production.post('https://receiver.no-such-host.invalid/hooks', '{}', {});
      expect(gone).toMatchObject({ ok: false, statusCode: 0, error: 'dns: host not found' });
      const loopback = await production.post('https://localhost:1/hooks', '{}', {});
      expect(loopback).toMatchObject({ ok: false, statusCode: 0, error: 'address not allowed' });
    } finally {
      await production.close();
    }
  });

  it('keeps secrets and addresses out of the phrase', () => {
    expect(formatTimeout(10_000)).toBe('10 s');
    expect(formatTimeout(1_500)).toBe('1500 ms');
    const wrapped = new Error('fetch failed to https://user:pw@10.0.0.1', {
      cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
    });
    expect(failureReason(wrapped, 10_000)).toBe('connection refused');
    expect(failureReason(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), 10_000)).toBe('timeout after 10 s');
    expect(failureReason(new AggregateError([Object.assign(new Error(), { code: 'ENOTFOUND' })]), 10_000)).toBe(
      'dns: host not found',
    );
    expect(failureReason(new Error('secret whsec_0123'), 10_000)).toBe('could not send');
  });

  it('is one of the phrases docs/partner/webhooks.md lists, each with what to do', () => {
    const guide = readFileSync(path.resolve(import.meta.dirname, '../../../docs/partner/webhooks.md'), 'utf8');
    for (const phrase of [...FIXED_FAILURE_PHRASES, 'timeout after 30 s', 'http 500']) {
      expect(guide, phrase).toMatch(new RegExp(`^\\|[^\\n]*\`${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``, 'm'));
    }
  });
});
