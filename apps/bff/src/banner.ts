import type { BootstrapOutcome } from './modules/clients/service.ts';
import type { RunningDemo } from './start-demo.ts';

export interface BannerInput {
  url?: string;
  outcome?: BootstrapOutcome;
  role: string;
  env: string;
  demo?: RunningDemo;
  /** The partner kit this build serves (modules/kit): where it is listed and the command that installs it. */
  kit?: { url: string; install: string };
  /** A one-time console link (modules/console) for the client the newcomer tries, and whose it is. */
  console?: { url: string; clientId: string; whose: string };
}

/** A value a POSIX shell reads back unchanged. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Reads `access_token` from the token response with Node, which everyone running this has (jq may be missing). */
const TOKEN_FROM_STDIN = `node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).access_token'`;

/**
 * Credentials the newcomer can paste into a shell. The demo bank's first: they are printed at every start and
 * see the demo's customers, so what a click in the demo did can be read through the API. Otherwise the
 * bootstrap client's, when its secret is known here.
 */
const shellCredentials = ({ outcome, demo }: BannerInput): { id: string; secret: string; whose: string } | undefined => {
  if (demo) return { id: demo.clientId, secret: demo.clientSecret, whose: 'Maple Bank, the demo: you see its customers' };
  if (outcome?.kind === 'generated') return { id: outcome.client.id, secret: outcome.secret, whose: 'your client' };
  return undefined;
};

/**
 * The partner's own client as the SDK reads it (docs/partner/quickstart.md): `CREDIT_API_URL` is the SDK's `baseUrl`,
 * the origin without `/v1` (every operation's path starts with it). The secret only when this start knows it: a
 * generated one is printed once; a configured one (BOOTSTRAP_CLIENT_SECRET) is never echoed.
 */
const partnerExports = (url: string, outcome: BootstrapOutcome): string[] => {
  const base = `export CREDIT_API_URL=${shellQuote(url)} CREDIT_CLIENT_ID=${shellQuote(outcome.client.id)}`;
  const line =
    outcome.kind === 'generated'
      ? `${base} CREDIT_CLIENT_SECRET=${shellQuote(outcome.secret)}`
      : outcome.kind === 'configured'
        ? `${base}   # and CREDIT_CLIENT_SECRET: the BOOTSTRAP_CLIENT_SECRET you set`
        : `${base}   # and CREDIT_CLIENT_SECRET: printed at this client's first start; a new one: pnpm clients rotate-secret ${outcome.client.id}`;
  return ["  Your client, for the SDK (docs/partner/quickstart.md): put these in your server's environment", `    ${line}`];
};

/** What the start command prints: where everything is, and credentials that make docs/partner/quickstart-curl.md runnable. */
export const startBanner = (input: BannerInput): string => {
  const { url, outcome, role, env, demo, kit, console: consoleLink } = input;
  const lines = [`Credit API (${env}, role ${role}) is running.`];
  if (demo) lines.push(`  Demo bank:     ${demo.url}   (open it: a partner page embedding the widget; port from DEMO_PORT)`);
  if (url) {
    lines.push(
      `  API:           ${url}   (the SDK's baseUrl; every route starts with /v1; port from PORT)`,
      `  Reference:     ${url}/docs`,
      `  OpenAPI:       ${url}/openapi.json`,
      `  Widget loader: ${url}/embed.js`,
    );
  }
  if (kit) {
    lines.push(
      `  Partner kit:   ${kit.url}   (the SDK and React tarballs of this build; install them in your project, docs/partner/install.md)`,
      `    ${kit.install}`,
    );
  }
  if (outcome) {
    lines.push(
      `  Bank name:     ${outcome.client.name}   (consumers read it in the consent text and the widget; change it: BOOTSTRAP_CLIENT_NAME="First Bank" pnpm start)`,
      `  Client id:     ${outcome.client.id}`,
    );
    if (outcome.kind === 'generated') lines.push(`  Client secret: ${outcome.secret}   (shown once; keep it)`);
    else if (outcome.kind === 'configured') lines.push('  Client secret: the BOOTSTRAP_CLIENT_SECRET you set');
    else lines.push(`  Client secret: shown when it was created; new one: pnpm clients rotate-secret ${outcome.client.id}`);
  }
  if (url && outcome) lines.push(...partnerExports(url, outcome));
  if (consoleLink) {
    lines.push(
      `  Console:       ${consoleLink.url}`,
      `    (the bank's console for ${consoleLink.whose}, role editor: opens once, within ten minutes; a new link: ` +
        `POST /v1/console/links, docs/partner/console.md)`,
    );
  }
  if (demo)
    lines.push(`  Demo client:   ${demo.clientId}   (what the demo bank signs in as; its secret is the same at every start)`);
  const credentials = shellCredentials(input);
  if (url && credentials) {
    lines.push(
      '  Try it: paste these lines into a shell; docs/partner/quickstart-curl.md uses $API, $CLIENT_ID, $CLIENT_SECRET and $TOKEN',
      `    export API=${shellQuote(url)}`,
      `    export CLIENT_ID=${shellQuote(credentials.id)} CLIENT_SECRET=${shellQuote(credentials.secret)}   # ${credentials.whose}`,
      `    export TOKEN=$(curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials "$API/oauth/token" | ${TOKEN_FROM_STDIN})`,
      '    curl -s -H "Authorization: Bearer $TOKEN" "$API/v1/users"',
    );
  } else if (url && outcome) {
    lines.push(`  Try it:        curl -s -u '${outcome.client.id}:<secret>' -d grant_type=client_credentials ${url}/oauth/token`);
  }
  return lines.join('\n');
};
