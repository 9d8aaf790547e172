import { HTTP_WEBHOOK_URL_PROBLEM, ZWebhookUrl } from '@credit/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
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
    // What WHATWG leaves as it is and RFC 3986 does not allow: percent-encoded (a lone `%` as `%25`).
    ['https://127.0.0.1/a]b|c^d', 'https://127.0.0.1/a%5Db%7Cc%5Ed'],
    ['https://127.0.0.1/x?q=[1]|{2}^`#f#[3]', 'https://127.0.0.1/x?q=%5B1%5D%7C%7B2%7D%5E%60#f%23%5B3%5D'],
    ['https://127.0.0.1/100%/a%2Fb', 'https://127.0.0.1/100%25/a%2Fb'],
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

/** The validator the OpenAPI check uses (ajv-formats), for the document's `format: uri` (RFC 3986). */
const ajv = new Ajv2020({ strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const isRfc3986Uri = ajv.compile({ type: 'string', format: 'uri' });

describe('webhook url in RFC 3986 form', () => {
  it('answers every printable ASCII character in the path, query and fragment with a URL format: uri accepts', () => {
    for (let code = 0x21; code < 0x7f; code++) {
      const char = String.fromCharCode(code);
      const result = ZWebhookUrl.safeParse(`https://hooks.example.com/p${char}q?x${char}y#f${char}g`);
      if (!result.success) continue; // refused with a 400 naming url (a character that ends the URL early, say)
      expect(isRfc3986Uri(result.data), `${char}: ${result.data}`).toBe(true);
      // Read back by the WHATWG parser (what delivery uses) unchanged, so storing it again changes nothing.
      expect(new URL(result.data).href).toBe(result.data);
      expect(ZWebhookUrl.parse(result.data)).toBe(result.data);
    }
  });

  it('keeps percent-encoded octets and every character RFC 3986 allows as they are', () => {
    const url = "https://hooks.example.com/a-._~!$&'()*+,;=:@/%C3%A9?k=v&w=/?#top/?";
    expect(ZWebhookUrl.parse(url)).toBe(url);
  });
});
