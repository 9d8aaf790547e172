import { WidgetError } from '../errors/widget-error.ts';
import type { WidgetSession, WidgetSessionState } from './session.ts';

/**
 * Renews an expired session: asks the host for a fresh token and starts a new session with it. Calls that
 * fail together share one renewal, so the host sees one `token_request`, not one per query. Once the host
 * has no token to give, the session is expired for good (until the error screen's retry).
 */
export class SessionRefresher {
  private inFlight: Promise<WidgetSessionState> | null = null;
  private expired: WidgetError | null = null;
  private readonly expiredListeners = new Set<(error: WidgetError) => void>();

  constructor(
    private readonly session: WidgetSession,
    private readonly requestFreshToken: () => Promise<string | null>,
  ) {}

  refresh(): Promise<WidgetSessionState> {
    if (this.expired) return Promise.reject(this.expired);
    this.inFlight ??= this.renew()
      .catch((error: unknown) => {
        if (error instanceof WidgetError && (error.code === 'INVALID_TOKEN' || error.code === 'ORIGIN_NOT_ALLOWED')) {
          this.markExpired(error);
        }
        throw error;
      })
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  /** App replaces every screen with the expired-session screen once the session cannot be renewed. */
  onExpired(listener: (error: WidgetError) => void): () => void {
    this.expiredListeners.add(listener);
    return () => {
      this.expiredListeners.delete(listener);
    };
  }

  /** Called after a fresh session starts from the error screen's retry. */
  clearExpired(): void {
    this.expired = null;
  }

  private async renew(): Promise<WidgetSessionState> {
    const token = await this.requestFreshToken();
    if (!token) throw new WidgetError('INVALID_TOKEN', 'The session expired and the host had no fresh user token.');
    return this.session.start(token);
  }

  private markExpired(error: WidgetError): void {
    this.expired = error;
    for (const listener of this.expiredListeners) listener(error);
  }
}
