/**
 * `/react?user=…`: the demo bank's page written in React with `@credit/react`, beside the script-tag page at
 * `/`. The page gets no token in its HTML: the component asks the bank's `/token` for one.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../page.ts';
import { bundleReactPage } from './bundle.ts';

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cache-control': 'no-store',
};

const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export const renderReactPage = (user: string, embedUrl: string) => `<!doctype html>
<html lang="en" data-scheme="light">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Maple Bank · Credit score (React)</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/demo.css">
</head>
<body>
<header class="bank-header">
  <a class="bank-logo" href="/react"><span class="bank-mark" aria-hidden="true">M</span> Maple Bank</a>
  <p class="bank-tagline">A fictional bank showing the Credit widget in React</p>
</header>
<div id="react-root"></div>
<script type="application/json" id="demo-config">${json({ user, embedUrl })}</script>
<script type="module" src="/react-demo.js"></script>
</body>
</html>
`;

export interface ReactPageOptions {
  /** The API as browsers reach it. */
  publicApiUrl: string;
  /** The demo's Content-Security-Policy for pages. */
  csp: string;
  /** The bank's rule for customer ids (they go into HTML and the API's externalUserId). */
  isCustomerId: (id: string) => boolean;
}

/** Serves `/react` and its script; answers false for any other request, which the demo server handles. */
export const createReactPage = ({ publicApiUrl, csp, isCustomerId }: ReactPageOptions) => {
  let bundle: Promise<Uint8Array> | null = null;
  const script = () => {
    bundle ??= bundleReactPage().catch((error: unknown) => {
      bundle = null;
      throw error;
    });
    return bundle;
  };

  return async (url: URL, res: ServerResponse): Promise<boolean> => {
    if (url.pathname === '/react-demo.js') {
      const body = await script();
      res.writeHead(200, { ...HEADERS, 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
      res.end(body);
      return true;
    }
    if (url.pathname !== '/react') return false;
    const user = url.searchParams.get('user');
    if (user === null) {
      res.writeHead(302, { ...HEADERS, location: `/react?user=demo-${randomBytes(5).toString('hex')}` });
      res.end();
      return true;
    }
    const valid = isCustomerId(user);
    res.writeHead(valid ? 200 : 400, { ...HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
    res.end(
      valid
        ? renderReactPage(user, `${publicApiUrl}/embed.js`)
        : `<!doctype html><title>Unknown customer</title><p>${escapeHtml('A customer id is 1–64 letters, digits, "-" or "_".')}</p>`,
    );
    return true;
  };
};
