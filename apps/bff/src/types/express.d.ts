import type { Principal } from '../core/principal.ts';

declare global {
  namespace Express {
    interface Request {
      requestId: string;
      /** The caller's own `X-Request-ID`, when it sent an acceptable one: echoed and logged, never our id. */
      correlationId?: string;
      /** Who the bearer token or Basic credentials say the caller is, once resolved. */
      principal?: Principal;
      /** Why the presented token was not accepted, for the 401 message. */
      authFailure?: string;
      /** The token the principal was resolved from (bearer or widget session), for the widget session exchange. */
      presentedToken?: string;
      /** A body that could not be parsed; raised after rate limiting so the 400 still carries limits. */
      bodyError?: { type?: string; message: string };
    }
  }
}
