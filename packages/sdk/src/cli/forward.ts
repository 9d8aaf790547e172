import http from 'node:http';
import https from 'node:https';

/** As the API's deliveries: no complete answer within 30 s is a failure. */
export const FORWARD_TIMEOUT_MS = 30_000;

/** How much of an answer is read before the connection is dropped: the receiver owes a status, not a body. */
const MAX_ANSWER_BYTES = 64 * 1024;

export type ForwardOutcome = { status: number } | { error: string };

/** Short phrases, as the delivery log's reasons: what a person fixes. */
const reasonOf = (error: NodeJS.ErrnoException): string => {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is your receiver running on that port?)';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
};

/** POSTs the exact bytes to `url` over HTTP or HTTPS; answers the status, or why there was none. Never throws. */
export const forward = (url: URL, body: string, headers: Record<string, string>, timeoutMs = FORWARD_TIMEOUT_MS) =>
  new Promise<ForwardOutcome>((resolve) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    let settled = false;
    const settle = (outcome: ForwardOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
    });
    const timer = setTimeout(() => {
      settle({ error: `timeout after ${Math.round(timeoutMs / 1000)} s` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => settle({ error: reasonOf(error) }));
    request.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      response.on('close', () => settle({ status: response.statusCode ?? 0 }));
      response.on('error', () => settle({ status: response.statusCode ?? 0 }));
    });
    request.end(body);
  });
