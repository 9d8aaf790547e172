import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccessToken } from '@credit/contract';

/**
 * What the proxy does with one API request: pass it on, pass it on but cut the connection before the answer
 * gets back (the server did the work, the caller never hears of it), or answer itself.
 */
export type ProxyStep = 'forward' | 'drop-response' | { status: number; headers?: Record<string, string>; body?: unknown };

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface ScriptedProxy {
  url: string;
  /** Every API request that reached the proxy (token requests are forwarded without being counted). */
  seen: SeenRequest[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding', 'keep-alive']);

/**
 * A real HTTP server in front of the API that plays `script`, one step per API request, then forwards
 * everything: how the SDK's tests meet 429s, 503s and lost responses on the way to a real server.
 */
export const startScriptedProxy = async (apiUrl: string, script: ProxyStep[]): Promise<ScriptedProxy> => {
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '/';
    const isTokenRequest = url.startsWith(createAccessToken.path);
    if (!isTokenRequest) seen.push({ method: req.method ?? 'GET', url, headers: req.headers });
    const step = isTokenRequest ? 'forward' : (script.shift() ?? 'forward');
    if (typeof step === 'object') {
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      res.end(step.body === undefined ? '' : JSON.stringify(step.body));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name, value]) => !HOP_BY_HOP.has(name) && typeof value === 'string'),
    ) as Record<string, string>;
    const upstream = await fetch(`${apiUrl}${url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    if (step === 'drop-response') {
      req.socket.destroy();
      return;
    }
    const responseHeaders: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) responseHeaders[name] = value;
    });
    res.writeHead(upstream.status, responseHeaders);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The API's own error envelope, for a proxy step that stands in for the server. */
export const errorEnvelope = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message, ...extra },
  meta: { requestId: 'req_fromtheproxy', timestamp: new Date().toISOString() },
});
