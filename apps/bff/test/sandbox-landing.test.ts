import { createHash } from 'node:crypto';
import type { TOffer } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { publicBaseUrl } from '../src/lib/public-url.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { productionEnv, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let sample: TOffer[];
const tok = () => app.currentToken(client);

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient({ name: 'Maple Bank (sandbox)' });
  const res = await app.request('GET', '/v1/offers?limit=100', { token: await tok() });
  expect(res.status).toBe(200);
  sample = res.body.data;
  expect(sample).toHaveLength(8);
});
afterAll(() => app?.close());

/** A browser's visit: no credentials of any kind. */
const visit = (url: string) => fetch(url, { redirect: 'manual' });

const expectStrictCsp = (res: Response, html: string) => {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("form-action 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toMatch(/script-src/);
  // The one inline style is allowed by its hash, so the page renders as designed under its own policy.
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
};

const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll("'", '&#39;');

const click = async (userId: string, offerId: string) => {
  const res = await app.request('POST', `/v1/users/${userId}/offers/${offerId}/click`, { token: await tok() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { clickId: string; applicationUrl: string };
};

const createOffer = async (body: Record<string, unknown>) => {
  const res = await app.request('POST', '/v1/offers', {
    token: await tok(),
    body: {
      type: 'credit_card',
      description: 'An offer the tests add.',
      aprType: 'variable',
      tiers: [{ minScore: 300, maxScore: 850, apr: 19.99 }],
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as TOffer;
};

describe('Apply in the sandbox', () => {
  it('leads every sample offer (a .example host) to the API’s own landing page, an absolute URL on this instance', async () => {
    for (const offer of sample) {
      expect(offer.applicationUrl).toBe(`${app.url}/sandbox/apply/${offer.offerId}?clickId=%7BclickId%7D`);
      expect(offer.applicationUrl).not.toContain('.example');
    }
    const userId = await enrolActiveUser(app, await tok());
    const res = await app.request('GET', `/v1/users/${userId}/offers?limit=100`, { token: await tok() });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(sample.length);
    for (const offer of res.body.data as TOffer[]) {
      expect(offer.applicationUrl).toBe(`${app.url}/sandbox/apply/${offer.offerId}?clickId=%7BclickId%7D`);
    }
  });

  it('keeps a bank’s own application page on a host that answers', async () => {
    const offer = await createOffer({ name: 'Maple Real Card', applicationUrl: 'https://apply.bank.test/cards?c={clickId}' });
    expect(offer.applicationUrl).toBe('https://apply.bank.test/cards?c=%7BclickId%7D');
    const userId = await enrolActiveUser(app, await tok());
    const { clickId, applicationUrl } = await click(userId, offer.offerId);
    expect(applicationUrl).toBe(`https://apply.bank.test/cards?c=${clickId}`);
    await app.request('POST', `/v1/offers/${offer.offerId}/archive`, { token: await tok() });
  });

  it('opens the click’s URL without credentials: a page naming the offer and the click, and how to report outcomes', async () => {
    const userId = await enrolActiveUser(app, await tok());
    for (const offer of sample) {
      const { clickId, applicationUrl } = await click(userId, offer.offerId);
      expect(applicationUrl).toBe(`${app.url}/sandbox/apply/${offer.offerId}?clickId=${clickId}`);
      const res = await visit(applicationUrl);
      expect(res.status, offer.name).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      expectStrictCsp(res, html);
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(html).toContain('<meta name="viewport"');
      expect(html).toContain('<main>');
      expect(html).toContain(`<title>${escaped(offer.name)}: sandbox application</title>`);
      expect(html).toContain(`<h1>${escaped(offer.name)}: sandbox application page</h1>`);
      expect(html).toContain(`stand-in for ${escaped(offer.provider)}'s application page`);
      expect(html).toContain(`<dt>Offer id</dt><dd><code>${offer.offerId}</code></dd>`);
      expect(html).toContain(`<dt>Click id</dt><dd><code>${clickId}</code></dd>`);
      expect(html).toContain(`"${app.url}/v1/offers/clicks/${clickId}/outcomes"`);
      expect(html).not.toContain('not shown to customers now');
      expect(html).not.toContain('<script');
    }
  });

  it('shows an outcomes command that works: run as written, it records the stage against the click', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const { clickId, applicationUrl } = await click(userId, (sample[3] as TOffer).offerId);
    const html = await (await visit(applicationUrl)).text();
    const command = /-d '([^']+)' "([^"]+)"/.exec(html);
    expect(command).not.toBeNull();
    const [, body, url] = command as unknown as [string, string, string];
    expect(url.startsWith(app.url)).toBe(true);
    const res = await app.request('POST', url.slice(app.url.length), { token: await tok(), body: JSON.parse(body) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ clickId, stage: 'funded', outcomes: [{ stage: 'funded', amount: 12000 }] });
  });

  it('without a click id, or with anything that is not one, names the offer and echoes nothing', async () => {
    const offer = sample[0] as TOffer;
    for (const query of [
      '',
      '?clickId=',
      '?clickId=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '?clickId=clk_a%22b',
      '?clickId=x&clickId=y',
    ]) {
      const res = await visit(`${app.url}/sandbox/apply/${offer.offerId}${query}`);
      expect(res.status, query).toBe(200);
      const html = await res.text();
      expectStrictCsp(res, html);
      expect(html).toContain(`<h1>${escaped(offer.name)}: sandbox application page</h1>`);
      expect(html).toContain('<dt>Click id</dt><dd><code>not in this address</code></dd>');
      expect(html).toContain(`"${app.url}/v1/offers/clicks/$CLICK_ID/outcomes"`);
      expect(html).not.toContain('<script');
      expect(html).not.toContain('alert(');
    }
  });

  it('says when the offer is not shown to customers now: paused, archived or expired', async () => {
    const ending = await createOffer({
      name: 'Maple Ending Card',
      applicationUrl: 'https://apply.maple-bank.example/cards/ending',
      expiresAt: new Date(app.clock.now().getTime() + 3600_000).toISOString(),
    });
    const paused = sample[1] as TOffer;
    const userId = await enrolActiveUser(app, await tok());
    const clicked = await click(userId, paused.offerId);
    const pageOf = async (offerId: string, query = '') => {
      const res = await visit(`${app.url}/sandbox/apply/${offerId}${query}`);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await pageOf(ending.offerId)).not.toContain('not shown to customers now');

    expect((await app.request('POST', `/v1/offers/${paused.offerId}/pause`, { token: await tok() })).status).toBe(200);
    const page = await pageOf(paused.offerId, `?clickId=${clicked.clickId}`);
    expect(page).toContain('This offer is not shown to customers now');
    expect(page).toContain(`<dt>Click id</dt><dd><code>${clicked.clickId}</code></dd>`);
    expect((await app.request('POST', `/v1/offers/${paused.offerId}/resume`, { token: await tok() })).status).toBe(200);
    expect(await pageOf(paused.offerId)).not.toContain('not shown to customers now');

    const started = app.clock.now();
    try {
      app.clock.advance(2 * 3600_000);
      expect(await pageOf(ending.offerId)).toContain('This offer is not shown to customers now');
    } finally {
      app.clock.set(started);
    }
    expect((await app.request('POST', `/v1/offers/${ending.offerId}/archive`, { token: await tok() })).status).toBe(200);
    expect(await pageOf(ending.offerId)).toContain('This offer is not shown to customers now');
  });

  it('answers an unknown or hostile offer id with a 404 page that does not echo it, never a 500', async () => {
    for (const id of ['off_doesNotExist1', 'nope', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', '..%2F..%2Fpackage.json']) {
      for (const query of ['', '?clickId=clk_doesNotExist1']) {
        const res = await visit(`${app.url}/sandbox/apply/${id}${query}`);
        expect(res.status, `${id}${query}`).toBe(404);
        const html = await res.text();
        expectStrictCsp(res, html);
        expect(html).toContain('<h1>No such offer</h1>');
        expect(html).not.toContain('<script');
        expect(html).not.toContain('doesNotExist');
      }
    }
    for (const bad of ['%E0%A4%A', '%ZZ']) {
      const res = await visit(`${app.url}/sandbox/apply/${bad}`);
      expect(res.status, bad).toBeGreaterThanOrEqual(400);
      expect(res.status, bad).toBeLessThan(500);
    }
  });

  it('answers an offer id with a NUL byte with the 404 page too (the database never sees it)', async () => {
    for (const id of ['%00', 'off_a%00b']) {
      const res = await visit(`${app.url}/sandbox/apply/${id}`);
      expect(res.status, id).toBe(404);
      const html = await res.text();
      expectStrictCsp(res, html);
      expect(html).toContain('<h1>No such offer</h1>');
    }
  });

  it('escapes what the bank wrote: a name or provider with markup is shown as text', async () => {
    const offer = await createOffer({
      name: `Maple <b onclick="x()">Bold</b> & 'Co' Card`,
      provider: '<img src=x onerror=alert(1)>',
      applicationUrl: 'https://apply.maple-bank.example/cards/bold',
    });
    const html = await (await visit(`${app.url}/sandbox/apply/${offer.offerId}`)).text();
    expect(html).toContain('Maple &lt;b onclick=&quot;x()&quot;&gt;Bold&lt;/b&gt; &amp; &#39;Co&#39; Card');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<b onclick');
    expect(html).not.toContain('<img');
    await app.request('POST', `/v1/offers/${offer.offerId}/archive`, { token: await tok() });
  });
});

describe('the public base URL', () => {
  it('comes from PUBLIC_URL when set (a proxy’s address, with a path): links and the page’s command use it', async () => {
    const proxied = await startTestApp({ config: { PUBLIC_URL: 'https://sandbox.bank.example/credit/' } });
    try {
      const other = await proxied.createClient({ name: 'Proxied Bank' });
      const token = await proxied.token(other);
      const res = await proxied.request('GET', '/v1/offers?limit=100', { token });
      expect(res.status).toBe(200);
      for (const offer of res.body.data as TOffer[]) {
        expect(offer.applicationUrl).toBe(
          `https://sandbox.bank.example/credit/sandbox/apply/${offer.offerId}?clickId=%7BclickId%7D`,
        );
      }
      const html = await (await visit(`${proxied.url}/sandbox/apply/${res.body.data[0].offerId}`)).text();
      expect(html).toContain('"https://sandbox.bank.example/credit/v1/offers/clicks/$CLICK_ID/outcomes"');
    } finally {
      await proxied.close();
    }
  });

  it('defaults to where the instance listens, and refuses a PUBLIC_URL that is not an http(s) URL', () => {
    const env = { DATA_DIR: '/nonexistent' };
    expect(publicBaseUrl(loadConfig(env))).toBe('http://127.0.0.1:3000');
    expect(publicBaseUrl(loadConfig({ ...env, HOST: '0.0.0.0', PORT: '8080' }))).toBe('http://localhost:8080');
    expect(publicBaseUrl(loadConfig({ ...env, HOST: '::1', PORT: '8443', TLS_CERT_FILE: 'c', TLS_KEY_FILE: 'k' }))).toBe(
      'https://[::1]:8443',
    );
    for (const bad of ['api.bank.example', 'ftp://bank.example', 'https://', 'https://bank.example/?x=1']) {
      expect(() => loadConfig({ ...env, PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL: must be an absolute http\(s\) URL/);
    }
  });
});

describe('in production', () => {
  it('keeps the bank’s own application page, even on a .example host, and serves no landing page', async () => {
    const live = await startTestApp({ config: productionEnv() });
    try {
      const token = await live.token(await live.createClient());
      const created = await live.request('POST', '/v1/offers', {
        token,
        body: {
          type: 'credit_card',
          name: 'Live Card',
          description: 'A production offer.',
          aprType: 'variable',
          tiers: [{ minScore: 300, maxScore: 850, apr: 19.99 }],
          applicationUrl: 'https://apply.livebank.example/cards?c={clickId}',
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data.applicationUrl).toBe('https://apply.livebank.example/cards?c=%7BclickId%7D');
      for (const path of [`/sandbox/apply/${created.body.data.offerId}`, `/sandbox/apply/${(sample[0] as TOffer).offerId}`]) {
        const page = await visit(`${live.url}${path}`);
        expect(page.status).toBe(404);
        expect(((await page.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      }
    } finally {
      await live.close();
    }
  });
});
