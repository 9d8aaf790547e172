import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoServer, startDemoServer } from '../src/demo-server.ts';

const PUBLIC_API = 'http://127.0.0.1:3999';
let demo: DemoServer;

// The React page never calls the API from the server (the component asks `/token` in the browser), so no API runs here.
beforeAll(async () => {
  demo = await startDemoServer({
    host: '127.0.0.1',
    port: 0,
    apiUrl: 'http://127.0.0.1:9',
    publicApiUrl: PUBLIC_API,
    clientId: 'cli_unused',
    clientSecret: 'unused',
  });
});
afterAll(() => demo?.close());

const get = (path: string) => fetch(`${demo.url}${path}`, { redirect: 'manual' });

describe('the demo bank’s React page', () => {
  it('sends a visitor without a customer id to a new throw-away customer', async () => {
    const response = await get('/react');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/react\?user=demo-[0-9a-f]{10}$/);
  });

  it('serves the page with the loader’s URL and no token, under the demo’s CSP', async () => {
    const response = await get('/react?user=react-test_1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain(`script-src 'self' ${PUBLIC_API}`);
    const html = await response.text();
    const config = JSON.parse(/<script type="application\/json" id="demo-config">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null');
    expect(config).toEqual({ user: 'react-test_1', embedUrl: `${PUBLIC_API}/embed.js` });
    expect(html).not.toContain('ut_');
    expect(html).toContain('<script type="module" src="/react-demo.js"></script>');
  });

  it('refuses a customer id that could not be put in the page', async () => {
    const response = await get(`/react?user=${encodeURIComponent('<script>')}`);
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain('<script>');
  });

  it('bundles React and the component into one script, in production mode', async () => {
    const response = await get('/react-demo.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await response.text();
    expect(script).toContain('data-credit-widget-container');
    // React's production build (its errors are minified); the development build is twice the size and slower.
    expect(script).toContain('Minified React error');
    expect(script.length).toBeLessThan(300_000);
  });
});
