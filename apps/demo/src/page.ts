/** The demo bank's HTML. Every dynamic value passes through `escapeHtml`; the page's script is `/demo.js`. */
import type { DemoPersona } from './personas.ts';

export type DemoLocale = 'en' | 'es';
export type DemoScheme = 'light' | 'dark';

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** JSON inside `<script type="application/json">`: `<` escaped so the data can never close the element. */
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const layout = (title: string, body: string, scheme: DemoScheme = 'light') => `<!doctype html>
<html lang="en" data-scheme="${scheme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/demo.css">
</head>
<body>
<header class="bank-header">
  <a class="bank-logo" href="/"><span class="bank-mark" aria-hidden="true">M</span> Maple Bank</a>
  <p class="bank-tagline">A fictional bank showing the Credit widget</p>
</header>
${body}
</body>
</html>
`;

export interface DemoPageInput {
  user: string;
  userToken: string;
  /** Where the partner's page loads `/embed.js` from (the browser-facing API URL). */
  publicApiUrl: string;
  locale: DemoLocale;
  scheme: DemoScheme;
  /** The identity this customer enrols with (see personas.ts). */
  persona: DemoPersona;
  /** The bank's client at the API, to say whose customer this is. */
  clientId: string;
}

/** The customer's own identity to enrol with, the magic values, and the buttons that call the sandbox helpers. */
const sandboxValues = (user: string, persona: DemoPersona, clientId: string) => {
  const { address } = persona;
  const rows: [string, string][] = [
    ['Date of birth', persona.dateOfBirth],
    ['SSN (last 4)', persona.ssnLast4],
    ['Street', address.street],
    ['City', address.city],
    ['State', address.state],
    ['ZIP', address.zipCode],
  ];
  return `
<section class="panel" aria-labelledby="sandbox-heading">
  <h2 id="sandbox-heading">Sandbox test values</h2>
  <p>Enrol in the widget as this customer, <strong>${escapeHtml(`${persona.firstName} ${persona.lastName}`)}</strong>.
  Every demo customer is a person of their own, so nothing another visitor did (a verification lockout, say) carries over.</p>
  <table id="customer-identity">
    <caption>This customer's details</caption>
    <tbody>
${rows.map(([field, value]) => `      <tr><th scope="row">${field}</th><td><code>${escapeHtml(value)}</code></td></tr>`).join('\n')}
    </tbody>
  </table>
  <p>The last four digits of the SSN choose what the sandbox does:</p>
  <table>
    <thead><tr><th scope="col">SSN (last 4)</th><th scope="col">Behaviour</th></tr></thead>
    <tbody>
      <tr><td><code>${escapeHtml(persona.ssnLast4)}</code> (or any other)</td><td>A normal synthetic credit file</td></tr>
      <tr><td><code>0000</code></td><td>Credit file frozen: verification works, the score does not</td></tr>
      <tr><td><code>9999</code></td><td>Identity verification always fails (try the lockout)</td></tr>
    </tbody>
  </table>
  <p>Identity questions ask about a synthetic credit file, so you cannot know the answers.
  <strong>Show answers</strong> asks the API's sandbox helper
  (<code>GET /v1/sandbox/users/{userId}/verification/answers</code>) for them, after you have enrolled.</p>
  <p>After verifying, move the score or send a test alert, then look at the widget's alerts.</p>
  <div class="button-row">
    <button type="button" id="sandbox-answers">Show answers</button>
    <button type="button" id="sandbox-refresh">Refresh score</button>
    <button type="button" id="sandbox-alert">Send a test alert</button>
  </div>
  <p>Or skip ahead in time: this customer lives on a sandbox test clock of their own
  (<code>POST /v1/sandbox/clocks/{clockId}/advance</code>). A month runs the next monthly refresh, a year every
  one up to a minute before the customer's one-year permission ends, as the monitoring would have: a history point each, alerts for what changed, the new score. Every date
  the widget shows is the clock's.</p>
  <div class="button-row">
    <button type="button" id="sandbox-advance-month">Advance one month</button>
    <button type="button" id="sandbox-advance-year">Advance one year</button>
  </div>
  <div id="sandbox-status" role="status"></div>
  <p>Through the API, this customer is <code>externalUserId</code> <code>${escapeHtml(user)}</code> of Maple Bank's client
  <code>${escapeHtml(clientId)}</code>, whose credentials <code>pnpm start</code> prints:
  <code>curl -s -H "Authorization: Bearer $TOKEN" "$API/v1/users?externalUserId=${escapeHtml(encodeURIComponent(user))}"</code></p>
</section>`;
};

export const renderDemoPage = (input: DemoPageInput) => {
  const config = { user: input.user, userToken: input.userToken, locale: input.locale, scheme: input.scheme };
  const body = `
<main class="bank-main">
  <h1>Your credit score</h1>
  <p>Signed in as customer <strong id="customer-id">${escapeHtml(input.user)}</strong>.
  <a href="/">Start over as a new customer</a></p>
  <div class="controls" role="group" aria-label="Widget options">
    <label>Widget language
      <select id="locale-select">
        <option value="en"${input.locale === 'en' ? ' selected' : ''}>English</option>
        <option value="es"${input.locale === 'es' ? ' selected' : ''}>Español</option>
      </select>
    </label>
    <button type="button" id="scheme-toggle" aria-pressed="${input.scheme === 'dark'}">Dark mode</button>
    <button type="button" id="open-offers">Show my offers</button>
  </div>
  <div id="credit-widget" class="widget-slot"></div>
  <div class="columns">
    <section class="panel" aria-labelledby="events-heading">
      <h2 id="events-heading">Widget events</h2>
      <p>What the bank's page receives through <code>onEvent</code>.</p>
      <ol id="event-log" aria-live="polite" aria-labelledby="events-heading" tabindex="0"></ol>
    </section>
    ${sandboxValues(input.user, input.persona, input.clientId)}
  </div>
</main>
<script type="application/json" id="demo-config">${jsonForScript(config)}</script>
<script src="${escapeHtml(input.publicApiUrl)}/embed.js"></script>
<script src="/demo.js"></script>`;
  return layout('Maple Bank · Credit score', body, input.scheme);
};

/** A readable failure: what went wrong and what to do, never a stack trace. */
export const renderErrorPage = (heading: string, message: string) =>
  layout(
    `Maple Bank · ${heading}`,
    `<main class="bank-main"><h1>${escapeHtml(heading)}</h1><p class="error-message">${escapeHtml(message)}</p>
<p><a href="/">Back to Maple Bank</a></p></main>`,
  );
