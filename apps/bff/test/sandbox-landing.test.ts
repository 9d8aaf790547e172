import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { publicBaseUrl } from '../src/lib/public-url.ts';
import { applicationUrlFor, CATALOGUE, type CatalogueEntry } from '../src/modules/offers/catalogue.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { productionEnv, startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
let admin: string;
beforeAll(async () => {
  app = await startTestApp();
  admin = await app.token(await app.createClient());
});
afterAll(() => app?.close());

/** A browser's visit: no credentials of any kind. */
const visit = (url: string) => fetch(url, { redirect: 'manual' });

const expectStrictCsp = (res: Response, html: string) => {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("form-action 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toMatch(/script-src/);
  // The one inline style is allowed by its hash, so the page renders as designed under its own policy.
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
};

const escaped = (text: string) => text.replaceAll('&', '&amp;');
const activeIds = CATALOGUE.filter((o) => o.expiresInMonths >= 0).map((o) => o.offerId);
const expired = CATALOGUE.find((o) => o.expiresInMonths < 0);

describe('Apply in the sandbox', () => {
  it('leads every catalogue offer to the API’s own landing page, an absolute URL on this instance', async () => {
    const res = await app.request('GET', '/v1/offers?limit=100', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { offerId: string }) => o.offerId).sort()).toEqual([...activeIds].sort());
    for (const offer of res.body.data) {
      expect(offer.applicationUrl).toBe(`${app.url}/sandbox/apply/${offer.offerId}`);
      expect(offer.applicationUrl).not.toContain('.example');
    }
  });

  it('does so in a user’s ranked offers too', async () => {
    const userId = await enrolActiveUser(app, admin);
    const res = await app.request('GET', `/v1/users/${userId}/offers?limit=100`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const offer of res.body.data) expect(offer.applicationUrl).toBe(`${app.url}/sandbox/apply/${offer.offerId}`);
  });

  it('opens, without credentials, an accessible page that names the offer and shows how to simulate a conversion', async () => {
    for (const entry of CATALOGUE.filter((o) => o.expiresInMonths >= 0)) {
      const res = await visit(`${app.url}/sandbox/apply/${entry.offerId}`);
      expect(res.status, entry.offerId).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      expectStrictCsp(res, html);
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(html).toContain('<meta name="viewport"');
      expect(html).toContain('<main>');
      expect(html).toContain(`<title>${escaped(entry.name)}: sandbox application</title>`);
      expect(html).toContain(`<h1>${escaped(entry.name)}: sandbox application page</h1>`);
      expect(html).toContain(`stand-in for ${escaped(entry.provider)}'s application page`);
      expect(html).toContain(`POST /v1/sandbox/users/{userId}/offers/${entry.offerId}/convert`);
      expect(html).toContain(`"${app.url}/v1/sandbox/users/$USER_ID/offers/${entry.offerId}/convert"`);
      expect(html).not.toContain('This offer has ended');
    }
  });

  it('says when the offer has ended', async () => {
    const res = await visit(`${app.url}/sandbox/apply/${expired?.offerId}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('This offer has ended');
  });

  it('answers an unknown or hostile offer id with a 404 page that does not echo it, never a 500', async () => {
    for (const id of ['off_doesNotExist1', 'nope', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', '..%2F..%2Fpackage.json', '%00']) {
      const res = await visit(`${app.url}/sandbox/apply/${id}`);
      expect(res.status, id).toBe(404);
      const html = await res.text();
      expectStrictCsp(res, html);
      expect(html).toContain('<h1>No such offer</h1>');
      expect(html).not.toContain('<script');
      expect(html).not.toContain('doesNotExist');
    }
    for (const bad of ['%E0%A4%A', '%ZZ']) {
      const res = await visit(`${app.url}/sandbox/apply/${bad}`);
      expect(res.status, bad).toBeGreaterThanOrEqual(400);
      expect(res.status, bad).toBeLessThan(500);
    }
  });
});

describe('the public base URL', () => {
  it('comes from PUBLIC_URL when set (a proxy’s address, with or without a path)', () => {
    const entry = CATALOGUE[0] as CatalogueEntry;
    const config = loadConfig({ DATA_DIR: '/nonexistent', PUBLIC_URL: 'https://sandbox.bank.example/credit/' });
    expect(applicationUrlFor(entry, config)).toBe(`https://sandbox.bank.example/credit/sandbox/apply/${entry.offerId}`);
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
  it('keeps the providers’ own application pages and serves no landing page', async () => {
    const live = await startTestApp({ config: productionEnv() });
    try {
      const token = await live.token(await live.createClient());
      const res = await live.request('GET', '/v1/offers?limit=100', { token });
      expect(res.status).toBe(200);
      for (const offer of res.body.data) {
        expect(offer.applicationUrl).toBe(CATALOGUE.find((o) => o.offerId === offer.offerId)?.applicationUrl);
      }
      const page = await visit(`${live.url}/sandbox/apply/${activeIds[0]}`);
      expect(page.status).toBe(404);
      expect(((await page.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    } finally {
      await live.close();
    }
  });
});
