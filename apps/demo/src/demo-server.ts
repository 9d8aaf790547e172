/**
 * The demo partner site, "Maple Bank": a page on its own origin that mints user tokens server-side and
 * embeds the widget with the `/embed.js` script tag, exactly as a partner would. node:http only.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { customerClocks } from './customer-clock.ts';
import { type DemoLocale, type DemoScheme, renderDemoPage, renderErrorPage } from './page.ts';
import { PartnerApi, PartnerApiError, type PartnerUser } from './partner-api.ts';
import { demoPersona } from './personas.ts';
import { createReactPage } from './react-page/route.ts';
import { DEMO_SOURCE_DIR } from './source-dir.ts';

export interface DemoServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The API as this server reaches it (token minting). */
  apiUrl: string;
  /** The API as browsers reach it (`/embed.js`, the frame); default `apiUrl`. */
  publicApiUrl?: string;
  clientId: string;
  clientSecret: string;
  logger?: Pick<Console, 'info' | 'error'>;
}

export interface DemoServer {
  url: string;
  close(): Promise<void>;
}

/** The bank's customer ids: short, URL-safe, and safe to put in HTML and in the API's externalUserId. */
export const USER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const ASSETS: Record<string, { file: string; type: string }> = {
  '/demo.js': { file: 'demo.js', type: 'text/javascript; charset=utf-8' },
  '/demo.css': { file: 'demo.css', type: 'text/css; charset=utf-8' },
};
const loadAsset = (file: string) => readFileSync(join(DEMO_SOURCE_DIR, 'public', file));

/** The bank's record of a customer: names from the id's own sandbox identity (see personas.ts). */
export const demoUser = (id: string): PartnerUser => {
  const { firstName, lastName } = demoPersona(id);
  return { id, email: `${id}@demo.example`, firstName, lastName };
};

const pageCsp = (apiOrigin: string) =>
  [
    "default-src 'none'",
    `script-src 'self' ${apiOrigin}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${apiOrigin}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cache-control': 'no-store',
};

const sendHtml = (res: ServerResponse, status: number, html: string, csp: string) => {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
  res.end(html);
};

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

/**
 * The demo page's own session, per customer: a cookie the page's GET sets (HttpOnly, SameSite=Strict) that its
 * buttons' same-origin POSTs carry back. A bare request (a webhook delivery pointed at the demo, a page on another
 * site) has none, so it cannot mint tokens or move a customer's clock. Keyed per process: a restart signs everyone out.
 */
const demoSessions = () => {
  const key = randomBytes(32);
  const nameOf = (user: string) => `maple_${user}`;
  const signatureOf = (user: string) => createHmac('sha256', key).update(user).digest('base64url');
  return {
    cookie: (user: string) => `${nameOf(user)}=${signatureOf(user)}; Path=/; HttpOnly; SameSite=Strict`,
    holds: (req: IncomingMessage, user: string): boolean => {
      const wanted = Buffer.from(signatureOf(user));
      for (const part of (req.headers.cookie ?? '').split(';')) {
        const [name, value] = part.trim().split('=', 2);
        if (name !== nameOf(user) || value === undefined) continue;
        const given = Buffer.from(value);
        if (given.length === wanted.length && timingSafeEqual(given, wanted)) return true;
      }
      return false;
    },
  };
};

const readableMessage = (error: unknown) =>
  error instanceof PartnerApiError
    ? `${error.message}${error.requestId ? ` (request id ${error.requestId})` : ''}`
    : 'Something went wrong on the bank’s side. Try again.';

export const startDemoServer = async (options: DemoServerOptions): Promise<DemoServer> => {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const publicApiUrl = (options.publicApiUrl ?? apiUrl).replace(/\/+$/, '');
  const csp = pageCsp(new URL(publicApiUrl).origin);
  const api = new PartnerApi(apiUrl, options.clientId, options.clientSecret);
  const assets = Object.fromEntries(
    Object.entries(ASSETS).map(([path, { file, type }]) => [path, { body: loadAsset(file), type }]),
  );

  const serveReactPage = createReactPage({ publicApiUrl, csp, isCustomerId: (id) => USER_ID_PATTERN.test(id) });

  const logFailure = (what: string, error: unknown) => {
    options.logger?.error(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  };

  /** The enrolled user behind a bank customer, for the sandbox helpers. */
  const enrolledUserId = async (user: string): Promise<string> => {
    const userId = await api.findEnrolledUserId(user);
    if (!userId)
      throw new PartnerApiError('Enrol in the widget first: this customer has no credit profile yet.', 409, 'NOT_ENROLLED');
    return userId;
  };

  const clocks = customerClocks(api);
  const advance = async (user: string, months: number) => {
    const { clock, before, after, alerts } = await clocks.advance(user, months);
    const span = months === 12 ? 'One year' : months === 1 ? 'One month' : `${months} months`;
    const score = after === null ? 'no score to show' : `score ${before ?? 'none'} → ${after}`;
    const alerted = alerts === 1 ? '1 new alert' : `${alerts} new alerts`;
    return {
      message: `${span} later (the customer's test clock now reads ${clock.frozenTime.slice(0, 10)}): ${score}, ${alerted}.`,
      clock,
    };
  };

  // Demo only: the holder of a customer's page session may drive these (see the comment at the `/token` handler).
  const sandboxActions: Record<string, (user: string) => Promise<unknown>> = {
    '/sandbox/answers': async (user) => ({ answers: await api.sandboxAnswers(await enrolledUserId(user)) }),
    '/sandbox/score-refresh': async (user) => {
      const result = await api.refreshScore(await enrolledUserId(user));
      return { message: `Score refreshed: ${result.previousScore ?? 'none'} → ${result.score}.` };
    },
    '/sandbox/alert': async (user) => {
      await api.createAlert(await enrolledUserId(user), 'new_inquiry');
      return { message: 'A test alert (new inquiry) was sent. Open the Alerts tab.' };
    },
    '/sandbox/advance-month': (user) => advance(user, 1),
    '/sandbox/advance-year': (user) => advance(user, 12),
  };

  const sessions = demoSessions();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const user = url.searchParams.get('user');
    // Every page of a customer opens (or renews) that customer's session; the actions below need it.
    if (req.method === 'GET' && user !== null && USER_ID_PATTERN.test(user)) res.setHeader('set-cookie', sessions.cookie(user));
    const asset = assets[url.pathname];
    if (req.method === 'GET' && asset) {
      res.writeHead(200, { ...COMMON_HEADERS, 'content-type': asset.type, 'cache-control': 'no-cache' });
      res.end(asset.body);
      return;
    }
    if (req.method === 'GET' && (await serveReactPage(url, res))) return;
    if (req.method === 'GET' && url.pathname === '/') {
      if (user === null) {
        res.writeHead(302, { ...COMMON_HEADERS, location: `/?user=demo-${randomBytes(5).toString('hex')}` });
        res.end();
        return;
      }
      if (!USER_ID_PATTERN.test(user)) {
        const message = 'A customer id is 1–64 letters, digits, "-" or "_".';
        sendHtml(res, 400, renderErrorPage('Unknown customer', message), csp);
        return;
      }
      try {
        const userToken = await api.mintUserToken(demoUser(user));
        const locale: DemoLocale = url.searchParams.get('locale') === 'es' ? 'es' : 'en';
        const scheme: DemoScheme = url.searchParams.get('scheme') === 'dark' ? 'dark' : 'light';
        sendHtml(
          res,
          200,
          renderDemoPage({
            user,
            userToken,
            publicApiUrl,
            locale,
            scheme,
            persona: demoPersona(user),
            clientId: options.clientId,
          }),
          csp,
        );
      } catch (error) {
        logFailure('minting a user token', error);
        sendHtml(res, 502, renderErrorPage('Your credit score is unavailable', readableMessage(error)), csp);
      }
      return;
    }
    // `/token` and `/sandbox/*` act for the customer `?user=` names, if the caller holds that customer's page session.
    // A real partner server binds them to its own signed-in customer and never takes the customer from the request;
    // the demo's customers are anonymous throw-away ids, so the page that names one is what signs it in.
    const action = url.pathname === '/token' ? null : sandboxActions[url.pathname];
    if (url.pathname === '/token' || action) {
      if (req.method !== 'POST') {
        res.writeHead(405, { ...COMMON_HEADERS, allow: 'POST' });
        res.end();
        return;
      }
      if (user === null || !USER_ID_PATTERN.test(user)) {
        sendJson(res, 400, { error: 'A customer id (?user=) of 1–64 letters, digits, "-" or "_" is required.' });
        return;
      }
      if (!sessions.holds(req, user)) {
        sendJson(res, 403, { error: 'Open this customer’s page first: its buttons act through the page’s own session.' });
        return;
      }
      try {
        sendJson(res, 200, action ? await action(user) : { userToken: await api.mintUserToken(demoUser(user)) });
      } catch (error) {
        logFailure(url.pathname, error);
        const status = error instanceof PartnerApiError && (error.status === 409 || error.status === 504) ? error.status : 502;
        sendJson(res, status, { error: readableMessage(error) });
      }
      return;
    }
    sendHtml(res, 404, renderErrorPage('Page not found', 'Maple Bank has no such page.'), csp);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      logFailure('request', error);
      if (!res.headersSent) sendJson(res, 500, { error: 'Something went wrong on the bank’s side.' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  options.logger?.info(`Maple Bank demo on ${url} (embedding the widget from ${publicApiUrl})`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
