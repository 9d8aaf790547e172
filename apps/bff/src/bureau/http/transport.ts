import tls from 'node:tls';
import { Agent } from 'undici';
import { BUREAU_API_KEY_HEADER, BUREAU_MAX_ANSWER_BYTES } from './contract.ts';
import { BureauAnswerError, BureauFault } from './errors.ts';

export interface BureauTransportOptions {
  /** Base URL; the contract's paths are appended to its path (a gateway may mount the bureau under a prefix). */
  url: string;
  apiKey?: string;
  /** PEM contents (not paths) of the client certificate and key, for bureaus that authenticate by mutual TLS. */
  clientCert?: string;
  clientKey?: string;
  /** PEM of extra CAs to trust for the bureau's own certificate (a private CA); the system CAs are kept. */
  ca?: string;
  timeoutMs: number;
}

export interface RawAnswer {
  status: number;
  body: string;
}

/** Statuses worth another attempt: the bureau is overloaded or failing, not refusing this request. */
const isTransient = (status: number) => status >= 500 || status === 429 || status === 408;

/**
 * Posts one JSON request to the bureau over a keep-alive pool (undici), authenticated by API key header
 * and/or client certificate, and reads at most BUREAU_MAX_ANSWER_BYTES of the answer. Transient failures
 * throw BureauFault (retried, counted by the breaker); a refusal throws BureauAnswerError (not retried).
 */
export class BureauTransport {
  readonly #agent: Agent;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #headers: Record<string, string>;

  constructor(options: BureauTransportOptions) {
    const base = new URL(options.url);
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.#headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(options.apiKey ? { [BUREAU_API_KEY_HEADER]: options.apiKey } : {}),
    };
    this.#agent = new Agent({
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 4_000,
      // The caller's timeout policy aborts the whole attempt; these only stop undici's defaults from cutting it shorter.
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: {
        timeout: options.timeoutMs,
        ...(options.clientCert && options.clientKey ? { cert: options.clientCert, key: options.clientKey } : {}),
        ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}),
      },
    });
  }

  /** `maxBytes`: the largest answer read (a batch's answers may take one file's limit each). */
  async post(path: string, payload: unknown, signal: AbortSignal, maxBytes = BUREAU_MAX_ANSWER_BYTES): Promise<RawAnswer> {
    let res: Awaited<ReturnType<Agent['request']>>;
    try {
      res = await this.#agent.request({
        origin: this.#origin,
        path: `${this.#basePath}${path}`,
        method: 'POST',
        headers: this.#headers,
        body: JSON.stringify(payload),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new BureauFault('network');
    }
    if (isTransient(res.statusCode)) {
      await res.body.dump({ limit: BUREAU_MAX_ANSWER_BYTES }).catch(() => {});
      throw new BureauFault('bureau_error', res.statusCode);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump({ limit: BUREAU_MAX_ANSWER_BYTES }).catch(() => {});
      throw new BureauAnswerError('rejected', { status: res.statusCode });
    }
    return { status: res.statusCode, body: await this.#readBounded(res.body, signal, maxBytes) };
  }

  async #readBounded(
    body: AsyncIterable<Buffer> & { destroy(): unknown },
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > maxBytes) {
          body.destroy();
          throw new BureauAnswerError('invalid_answer', { tooLarge: true, limitBytes: maxBytes });
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof BureauAnswerError || signal.aborted) throw error;
      // The connection broke mid-answer: as transient as a refused connection.
      throw new BureauFault('network');
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): Promise<void> {
    return this.#agent.close().catch(() => {});
  }
}
