import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query exactly as they go on the request line: nothing re-encodes or normalises them. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or the text when the response is not JSON, or undefined when empty. */
  body: unknown;
  /** Set when a JSON content type came with a body that is not JSON. */
  jsonError?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * One request over node:http. fetch would normalise the URL (and refuse some of it); the fuzz needs
 * `%E0%A4%A` and friends to reach the server byte for byte, and full control of the headers sent.
 */
export const sendRaw = (baseUrl: string, request: RawRequest): Promise<RawResponse> => {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.target,
        headers: {
          ...request.headers,
          ...(request.body && !request.headers['transfer-encoding'] ? { 'content-length': String(request.body.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.append(name, v);
          }
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text || undefined;
          let jsonError: string | undefined;
          if (text && headers.get('content-type')?.includes('json')) {
            try {
              body = JSON.parse(text);
            } catch (error) {
              jsonError = (error as Error).message;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers, text, body, jsonError });
        });
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
};

export const closeRawAgent = () => agent.destroy();
