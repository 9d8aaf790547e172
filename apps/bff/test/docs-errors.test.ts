import { ERROR_CODES, OAUTH_ERRORS } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('/docs/errors', () => {
  it('explains every error code, with its status and what to do, under its own anchor', async () => {
    const page = await app.request('GET', '/docs/errors');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = page.body as string;
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      const section = html.slice(html.indexOf(`<section id="${code}">`));
      expect(section.startsWith(`<section id="${code}">`), code).toBe(true);
      expect(section.slice(0, section.indexOf('</section>'))).toMatch(new RegExp(`HTTP ${status}[\\s\\S]*What to do:`));
    }
    for (const code of Object.keys(OAUTH_ERRORS)) expect(html).toContain(`<section id="${code}">`);
  });

  it('is what every error response of the reference links to, anchor by anchor', async () => {
    const html = (await app.request('GET', '/docs/errors')).body as string;
    const document = (await app.request('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    let links = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!/^[45]\d\d$/.test(status)) continue;
          for (const code of response.description.match(/`[A-Z_]+`/g) ?? []) {
            const bare = code.slice(1, -1);
            expect(response.description, `${method} ${path} ${status}`).toContain(`(/docs/errors#${bare})`);
            expect(html).toContain(`id="${bare}"`);
            links += 1;
          }
        }
      }
    }
    expect(links).toBeGreaterThan(50);
  });
});
