import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';
import type { Config } from '../../config.ts';
import { loopbackReceiversAllowed, resolveAllowed } from './assert-webhook-url.ts';
import { ADDRESS_NOT_ALLOWED, failureReason, HTTP_IN_PRODUCTION, httpStatusReason, timeoutReason } from './failure-reason.ts';

export interface AttemptOutcome {
  ok: boolean;
  /** 0 when the subscriber did not answer (timeout, refused, TLS or DNS failure, unsafe address). */
  statusCode: number;
  responseTimeMs: number;
  /**
   * Why the attempt failed, as a short stable phrase (failure-reason.ts) the partner sees in the delivery log:
   * `connection refused`, `timeout after 30 s`, `tls: self-signed certificate`, `http 500`. Absent on success.
   */
  error?: string;
  /** The underlying error's message, for our own logs only (never stored, never shown to the partner). */
  detail?: string;
}

/** Marks the abort of our own deadline, so it is told apart from errors undici raises. */
class DeadlineExceeded extends Error {}

export const USER_AGENT = 'CreditPlatform-Webhooks/1.0 (+https://credit.example/docs#webhooks)';

/** How much of an answer's body we read before dropping the connection: receivers owe us a status, not a body. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Posts exact bytes over HTTPS (or, in a sandbox that allows it, plain HTTP to a loopback receiver) through one keep-alive pool per receiver origin (undici), at most
 * WEBHOOK_CONNECTIONS_PER_ORIGIN connections each, so a busy receiver costs one TLS handshake per
 * connection rather than one per delivery. Trusts the system CAs plus WEBHOOK_CA_FILE, and re-checks every
 * resolved address when a connection is opened (the lookup hook), so a host that passed the creation check
 * cannot later rebind to a private address; a reused connection stays on the address that was checked.
 */
export class Deliverer {
  readonly #agent: Agent;
  readonly #timeoutMs: number;
  readonly #env: Config['APP_ENV'];
  /** Loopback receivers (http://localhost) may be delivered to: a local sandbox only (WEBHOOK_ALLOW_LOOPBACK_HTTP). */
  readonly #allowLoopback: boolean;

  constructor(config: Config) {
    const extra = config.WEBHOOK_CA_FILE ? [readFileSync(config.WEBHOOK_CA_FILE, 'utf8')] : [];
    this.#timeoutMs = config.WEBHOOK_TIMEOUT_MS;
    this.#env = config.APP_ENV;
    this.#allowLoopback = loopbackReceiversAllowed(config);
    this.#agent = new Agent({
      connections: config.WEBHOOK_CONNECTIONS_PER_ORIGIN,
      // Idle connections close before typical server keep-alive limits (5 s in Node), so we rarely reuse one the
      // receiver is closing.
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 4_000,
      // The whole attempt has one deadline (below); these only stop undici's own defaults from cutting it shorter.
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
      // One secure context for every connection: building one from ~150 root certificates costs milliseconds.
      connect: {
        secureContext: tls.createSecureContext({ ca: [...tls.rootCertificates, ...extra] }),
        lookup: this.#lookup,
        timeout: this.#timeoutMs,
      },
    });
  }

  readonly #lookup: LookupFunction = (hostname, options, callback) => {
    resolveAllowed(hostname, this.#allowLoopback).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
      },
      // The error keeps its own code: an unsafe address is EUNSAFE (UnsafeAddressError), a host that does not resolve
      // keeps ENOTFOUND / EAI_AGAIN, so the partner's log says `dns: host not found` rather than `address not allowed`.
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };

  async post(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // http:// is a sandbox convenience for a receiver on the developer's machine; production sends only over TLS.
    if (target.protocol !== 'https:' && this.#env !== 'sandbox') {
      return { ok: false, statusCode: 0, responseTimeMs: 0, error: HTTP_IN_PRODUCTION };
    }
    // http:// is only ever a loopback receiver (the contract's rule): where those are turned off, nothing is sent.
    if (target.protocol !== 'https:' && !this.#allowLoopback) {
      return { ok: false, statusCode: 0, responseTimeMs: 0, error: ADDRESS_NOT_ALLOWED, detail: 'loopback receivers are off' };
    }
    try {
      // Node skips the lookup hook for IP literals, so they are checked here.
      if (ipaddr.isValid(host)) await resolveAllowed(host, this.#allowLoopback);
    } catch (error) {
      return {
        ok: false,
        statusCode: 0,
        responseTimeMs: elapsed(),
        error: ADDRESS_NOT_ALLOWED,
        detail: (error as Error).message,
      };
    }
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new DeadlineExceeded(`no complete answer within ${this.#timeoutMs} ms`)),
      this.#timeoutMs,
    );
    try {
      const res = await this.#agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers,
        body,
        signal: abort.signal,
      });
      // Reading the answer to its end is what lets the connection carry the next delivery.
      await res.body.dump({ limit: MAX_ANSWER_BYTES, signal: abort.signal });
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return ok
        ? { ok, statusCode: res.statusCode, responseTimeMs: elapsed() }
        : { ok, statusCode: res.statusCode, responseTimeMs: elapsed(), error: httpStatusReason(res.statusCode) };
    } catch (error) {
      const deadline = abort.signal.aborted && abort.signal.reason instanceof DeadlineExceeded;
      return {
        ok: false,
        statusCode: 0,
        responseTimeMs: elapsed(),
        error: deadline ? timeoutReason(this.#timeoutMs) : failureReason(error, this.#timeoutMs),
        detail: (error as Error)?.message,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.#agent.close().catch(() => {});
  }
}
