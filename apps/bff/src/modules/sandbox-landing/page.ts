import { createHash } from 'node:crypto';
import type { CatalogueOffer } from '../offers/service.ts';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const STYLE = `
:root { color-scheme: light dark; --fg: #1a1f2b; --muted: #4a5163; --bg: #ffffff; --panel: #f3f5f9; --accent: #0b5cad; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8ebf2; --muted: #b5bccb; --bg: #12151c; --panel: #1d222d; --accent: #8cc2ff; } }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
.badge { display: inline-block; padding: 0.1rem 0.6rem; border-radius: 1rem; background: var(--panel); color: var(--muted); font-size: 0.875rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.75rem 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
pre { background: var(--panel); padding: 0.75rem; border-radius: 0.5rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-family: ui-monospace, monospace; font-size: 0.875rem; }
a { color: var(--accent); }
`;

/** The page's only style, allowed by its hash: the CSP needs neither `'unsafe-inline'` nor a second request. */
const styleHash = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** Nothing loads, nothing runs, nothing frames it, no form goes anywhere. */
export const LANDING_CSP = [
  "default-src 'none'",
  `style-src ${styleHash}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

const TYPE_NAMES: Record<CatalogueOffer['body']['type'], string> = {
  credit_card: 'Credit card',
  loan: 'Loan',
  mortgage: 'Mortgage',
};

export interface LandingInput {
  offer: CatalogueOffer;
  /** The click that opened the page, when its address carried one. */
  clickId: string | undefined;
  ended: boolean;
  /** The API's public base URL, for the copy-paste command. */
  apiUrl: string;
}

/** The sandbox's stand-in for a bank's application page, for one offer and the click that opened it. */
export const renderLandingPage = ({ offer, clickId, ended, apiUrl }: LandingInput): string => {
  const name = escapeHtml(offer.body.name);
  const provider = escapeHtml(offer.body.provider);
  const offerId = escapeHtml(offer.offerId);
  const click = clickId ? escapeHtml(clickId) : '$CLICK_ID';
  const outcomes = `/v1/offers/clicks/${click}/outcomes`;
  return layout(
    `${offer.body.name}: sandbox application`,
    `<p class="badge">Sandbox</p>
<h1>${name}: sandbox application page</h1>
<p>This page is the sandbox's stand-in for ${provider}'s application page. The offer's application address is on a
<code>.example</code> host, which never answers, so in the sandbox "Apply" ends here; in production it opens that
address, with the click id filled in where it says <code>{clickId}</code>. Nothing is submitted from here.</p>
${ended ? '<p><strong>This offer is not shown to customers now</strong> (paused, expired or archived).</p>' : ''}
<h2>The offer</h2>
<dl>
  <dt>Offer</dt><dd>${name}</dd>
  <dt>Provider</dt><dd>${provider}</dd>
  <dt>Type</dt><dd>${TYPE_NAMES[offer.body.type]}</dd>
  <dt>Offer id</dt><dd><code>${offerId}</code></dd>
  <dt>Click id</dt><dd><code>${clickId ? click : 'not in this address'}</code></dd>
</dl>
<h2>What happens next</h2>
<p>The click that opened this page was recorded and sent to the bank as <code>offer.clicked</code>. The bank's
application reports what becomes of it against the click: <code>applied</code>, <code>approved</code>,
<code>declined</code> or <code>funded</code> with the amount. Each stage emits <code>offer.converted</code> and counts in
the program's results (<code>GET /v1/offers/results</code>).</p>
<pre><code>curl -s -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\
  -d '{"stage":"funded","amount":12000}' "${escapeHtml(apiUrl)}${outcomes}"</code></pre>
<p>You can close this window.</p>`,
  );
};

/** A readable 404 for an offer id the catalogue does not hold. */
export const renderUnknownOfferPage = (): string =>
  layout(
    'No such offer: sandbox application',
    `<p class="badge">Sandbox</p>
<h1>No such offer</h1>
<p>This is the sandbox's stand-in for a provider's application page, but the offer id in its address is not in
the catalogue. <code>GET /v1/offers</code> lists the offers there are.</p>`,
  );
