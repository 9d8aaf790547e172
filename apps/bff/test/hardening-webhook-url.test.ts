import { HTTP_WEBHOOK_URL_PROBLEM } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/** Webhook `url`: parsed by the WHATWG URL parser, https (or loopback http in the sandbox), stored and returned as its normalised `href`. */
let app: TestApp;
let token: string;

const BASE = { events: ['user.enrolled'], secret: 'whsec_0123456789abcdef' };

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
});
afterAll(() => app.close());

const webhookCount = async () =>
  Number((await app.db.query<{ n: number }>('select count(*)::int as n from webhooks')).rows[0]?.n);

const storedUrl = async (webhookId: string) =>
  (await app.db.query<{ url: string }>('select url from webhooks where id = $1', [webhookId])).rows[0]?.url;

describe('webhook url', () => {
  it.each([
    ['https://127.0.0.1/fé', 'https://127.0.0.1/f%C3%A9'],
    ['HTTPS://127.0.0.1:443/a/../hook?x=ü#frag', 'https://127.0.0.1/hook?x=%C3%BC#frag'],
    ['https://[::1]:8443/hooks', 'https://[::1]:8443/hooks'],
  ])('create stores and returns %s as %s', async (url, href) => {
    const res = await app.request('POST', '/v1/webhooks', { token, body: { ...BASE, url } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.url).toBe(href);
    expect(await storedUrl(res.body.data.webhookId)).toBe(href);
    const read = await app.request('GET', `/v1/webhooks/${res.body.data.webhookId}`, { token });
    expect(read.body.data.url).toBe(href);
  });

  it('PATCH normalises too', async () => {
    const created = await app.request('POST', '/v1/webhooks', { token, body: { ...BASE, url: 'https://127.0.0.1/a' } });
    const res = await app.request('PATCH', `/v1/webhooks/${created.body.data.webhookId}`, {
      token,
      body: { url: 'https://127.0.0.1/ça va' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.url).toBe('https://127.0.0.1/%C3%A7a%20va');
    expect(await storedUrl(created.body.data.webhookId)).toBe('https://127.0.0.1/%C3%A7a%20va');
  });

  it.each([
    // Plain http:// only for a loopback receiver (webhooks-loopback.test.ts); anything else needs TLS.
    ['http://hooks.example.com/hook', HTTP_WEBHOOK_URL_PROBLEM],
    ['http://10.0.0.1/hook', HTTP_WEBHOOK_URL_PROBLEM],
    ['ftp://127.0.0.1/hook', HTTP_WEBHOOK_URL_PROBLEM],
    ['https://exa mple.com/', 'must be a valid URL'],
    ['hooks.example.com/x', 'must be a valid URL'],
    ['https://user:pw@127.0.0.1/hook', 'must not contain a user name or password'],
    [`https://127.0.0.1/${'é'.repeat(400)}`, 'must be at most 2048 characters once normalised'],
  ])('refuses %s with 400 on url and stores nothing', async (url, message) => {
    const before = await webhookCount();
    const res = await app.request('POST', '/v1/webhooks', { token, body: { ...BASE, url } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'url', message }]);
    expect(await webhookCount()).toBe(before);
  });
});
