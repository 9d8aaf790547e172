import {
  type FrameToHostMessage,
  type HostToFramePayloads,
  WIDGET_CSRF_HEADER,
  WIDGET_MESSAGE_SOURCE,
  WIDGET_PROTOCOL_VERSION,
  type WidgetDisclosure,
} from '@credit/contract/widget-protocol';
import { createWidgetServices } from '../src/app/services.ts';
import type { LaunchContext } from '../src/bridge/launch.ts';

export const PARENT_ORIGIN = 'https://bank.example';
export const FRAME_ID = 'cw1test';

export const embeddedLaunch = (): LaunchContext => ({
  mode: 'embedded',
  parentOrigin: PARENT_ORIGIN,
  frameId: FRAME_ID,
  fragmentToken: null,
  fragmentSettings: {},
  originRefused: false,
});

/**
 * The partner's page as the frame sees it: a parent window that records what the frame posts, and sends
 * messages that arrive as they would from the loader (origin, source and envelope can each be spoiled).
 */
export const fakeHostPage = () => {
  const posted: { message: FrameToHostMessage; targetOrigin: string }[] = [];
  const parent = {
    postMessage: (message: unknown, targetOrigin: string) => {
      posted.push({ message: message as FrameToHostMessage, targetOrigin });
    },
  };
  const send = <K extends keyof HostToFramePayloads>(
    type: K,
    payload: HostToFramePayloads[K],
    spoil: { origin?: string; source?: unknown; frameId?: string; version?: number } = {},
  ) => {
    const data = {
      source: WIDGET_MESSAGE_SOURCE,
      version: spoil.version ?? WIDGET_PROTOCOL_VERSION,
      frameId: spoil.frameId ?? FRAME_ID,
      type,
      payload,
    };
    const source = 'source' in spoil ? spoil.source : parent;
    window.dispatchEvent(
      new MessageEvent('message', { origin: spoil.origin ?? PARENT_ORIGIN, source: source as MessageEventSource, data }),
    );
  };
  const sent = (type: FrameToHostMessage['type']) => posted.filter(({ message }) => message.type === type);
  return { parent, posted, send, sent };
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const authError = () => json(401, { error: { code: 'AUTHENTICATION_ERROR', message: 'The token expired.' } });

/**
 * The API's widget session as the frame uses it: a user token in `valid` starts a cookie session whose CSRF
 * token names it; `expire()` ends every session and token so far. Records each request the frame sends.
 */
export const fakeWidgetApi = ({ disclosure = 'none' }: { disclosure?: WidgetDisclosure } = {}) => {
  const validTokens = new Set<string>();
  const liveCsrf = new Set<string>();
  const requests: { method: string; path: string; headers: Record<string, string> }[] = [];
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries([...new Headers(init.headers)].map(([name, value]) => [name.toLowerCase(), value]));
    const method = init.method ?? 'GET';
    requests.push({ method, path: input, headers });
    if (input === '/widget/session' && method === 'POST') {
      const token = headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!validTokens.has(token)) return authError();
      const csrfToken = `csrf_${token}`;
      liveCsrf.add(csrfToken);
      return json(201, {
        data: {
          csrfToken,
          expiresAt: '2030-01-01T00:00:00.000Z',
          userId: 'usr_1',
          disclosure,
          consentTerms: { termsVersion: '2026-11-25', validityDays: 365, refreshIntervalDays: 30, partnerName: 'Maple Bank' },
        },
        meta: { requestId: 'req_session', timestamp: new Date().toISOString() },
      });
    }
    const csrf = headers[WIDGET_CSRF_HEADER] ?? '';
    if (!liveCsrf.has(csrf)) return authError();
    if (input === '/widget/session') return json(200, { data: { ok: true } });
    if (input !== '/v1/me') return json(403, { error: { code: 'AUTHORIZATION_ERROR', message: 'Not your customer.' } });
    return json(200, {
      data: { userId: 'usr_1', servedTo: csrf },
      meta: { requestId: 'req_1', timestamp: '2030-01-01T00:00:00Z' },
    });
  };
  return {
    fetch,
    requests,
    issueToken: (token: string) => validTokens.add(token),
    expire: () => {
      validTokens.clear();
      liveCsrf.clear();
    },
  };
};

export const createFrame = (options: { disclosure?: WidgetDisclosure } = {}) => {
  const host = fakeHostPage();
  const api = fakeWidgetApi(options);
  const services = createWidgetServices(embeddedLaunch(), { env: { window, parent: host.parent }, fetch: api.fetch });
  return { host, api, services };
};

/** Lets queued promise callbacks run (no timers involved). */
export const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};
