import type { ClientRecord, Principal } from './principal.ts';

/** A presented token, resolved: the principal it stands for, or why it was refused (said to the caller). */
export type TokenResolution = { principal: Principal; token: string } | { failure: string };

/**
 * What the HTTP layer needs from authentication, provided on `AppContext` so `http/` never reaches into
 * modules. Implemented by modules/auth.
 */
export interface AuthService {
  /** Shape, environment, stored hash, revocation and expiry of a bearer token. */
  resolveToken(token: string): Promise<TokenResolution>;
  /** The client a token request claims to be (for its rate-limit bucket); undefined when unknown. */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
}
