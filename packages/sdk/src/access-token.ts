import type { TTokenResponse } from '@credit/contract';
import type { CreditAuth } from './auth.ts';

/** Renew this long before the stated expiry, so no request leaves with a token about to die. */
export const DEFAULT_RENEWAL_MARGIN_MS = 60_000;

/**
 * When a token obtained at `obtainedAtMs` and valid `expiresInSec` should be replaced: `marginMs` before it
 * expires, but never in the first half of its life (a short-lived token would otherwise be renewed at once).
 */
export const tokenRenewAt = (obtainedAtMs: number, expiresInSec: number, marginMs: number): number => {
  const lifetimeMs = expiresInSec * 1000;
  return obtainedAtMs + Math.max(lifetimeMs / 2, lifetimeMs - marginMs);
};

/**
 * The client-credentials access token: fetched on first use, cached, renewed before it expires. Concurrent
 * callers share one token request; a token the API refused is dropped so the next caller fetches another.
 */
export class ClientCredentialsAuth implements CreditAuth {
  private cached: { token: string; renewAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly requestToken: () => Promise<TTokenResponse>,
    private readonly now: () => number,
    private readonly marginMs = DEFAULT_RENEWAL_MARGIN_MS,
  ) {}

  async token(): Promise<string> {
    if (this.cached && this.now() < this.cached.renewAt) return this.cached.token;
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.token()}` };
  }

  renew(sent: Record<string, string>): boolean {
    // Another caller may have renewed already: only the token that was refused is dropped.
    if (this.cached && sent.authorization === `Bearer ${this.cached.token}`) this.cached = undefined;
    return true;
  }

  private async fetchToken(): Promise<string> {
    const obtainedAt = this.now();
    const response = await this.requestToken();
    this.cached = { token: response.access_token, renewAt: tokenRenewAt(obtainedAt, response.expires_in, this.marginMs) };
    return response.access_token;
  }
}
