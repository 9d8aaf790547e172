import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.ts';
import { resolveAllowed } from './assert-webhook-url.ts';

export interface AttemptOutcome {
  ok: boolean;
  /** 0 when the subscriber did not answer (timeout, refused, TLS or DNS failure, unsafe address). */
  statusCode: number;
  responseTimeMs: number;
  /** Why there was no answer; for our logs only, never for the partner. */
  error?: string;
}

export const USER_AGENT = 'CreditPlatform-Webhooks/1.0 (+https://credit.example/docs#webhooks)';

/**
 * Posts exact bytes over HTTPS. Trusts the system CAs plus WEBHOOK_CA_FILE, and re-checks every resolved
 * address at connect time (the lookup hook), so a host that passed the creation check cannot later
 * rebind to a private address.
 */
export class Deliverer {
  readonly #agent: https.Agent;
  readonly #timeoutMs: number;
  readonly #env: Config['APP_ENV'];

  constructor(config: Config) {
    const extra = config.WEBHOOK_CA_FILE ? [readFileSync(config.WEBHOOK_CA_FILE, 'utf8')] : [];
    this.#agent = new https.Agent({ keepAlive: true, maxSockets: 64, ca: [...tls.rootCertificates, ...extra] });
    this.#timeoutMs = config.WEBHOOK_TIMEOUT_MS;
    this.#env = config.APP_ENV;
  }

  readonly #lookup: LookupFunction = (hostname, options, callback) => {
    resolveAllowed(hostname, this.#env).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
      },
      (error: Error) => callback(Object.assign(error, { code: 'EUNSAFE' }), '', 4),
    );
  };

  async post(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    try {
      // Node skips the lookup hook for IP literals, so they are checked here.
      if (ipaddr.isValid(host)) await resolveAllowed(host, this.#env);
    } catch (error) {
      return { ok: false, statusCode: 0, responseTimeMs: elapsed(), error: (error as Error).message };
    }
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const req = https.request(
        target,
        {
          method: 'POST',
          agent: this.#agent,
          lookup: this.#lookup,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const statusCode = res.statusCode ?? 0;
          res.resume();
          res.once('end', () => finish({ ok: statusCode >= 200 && statusCode < 300, statusCode, responseTimeMs: elapsed() }));
          res.once('error', (error) => finish({ ok: false, statusCode, responseTimeMs: elapsed(), error: error.message }));
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`no complete answer within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      req.once('error', (error) => finish({ ok: false, statusCode: 0, responseTimeMs: elapsed(), error: error.message }));
      req.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
