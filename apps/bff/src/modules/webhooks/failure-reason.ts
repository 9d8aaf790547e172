/**
 * Why an attempt failed, in the short stable phrases `GET /v1/webhooks/{id}/logs` shows the partner
 * (docs/partner/webhooks.md lists them). Built only from error codes and numbers we chose, never from an error's
 * message, so no host detail, header, body or secret can leak into the partner's log.
 */

/** `10 s` for whole seconds, else `300 ms`: the configured deadline, as the partner's log states it. */
export const formatTimeout = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

export const timeoutReason = (ms: number): string => `timeout after ${formatTimeout(ms)}`;

export const httpStatusReason = (status: number): string => `http ${status}`;

/** Sandbox-only http:// receivers reached by an instance that is now production. */
export const HTTP_IN_PRODUCTION = 'https required in production';
export const ADDRESS_NOT_ALLOWED = 'address not allowed';
export const COULD_NOT_SIGN = 'could not sign (internal error; retried)';
export const UNKNOWN_FAILURE = 'could not send';

/** Node / OpenSSL certificate codes, as the partner fixes them. */
const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls: self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls: self-signed certificate in chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls: certificate not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT: 'tls: certificate not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls: certificate not signed by a trusted authority',
  CERT_UNTRUSTED: 'tls: certificate not signed by a trusted authority',
  CERT_HAS_EXPIRED: 'tls: certificate has expired',
  CERT_NOT_YET_VALID: 'tls: certificate is not yet valid',
  CERT_REVOKED: 'tls: certificate revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls: certificate does not match the host',
  ERR_SSL_WRONG_VERSION_NUMBER: 'tls: handshake failed (is the receiver serving https?)',
  EPROTO: 'tls: handshake failed (is the receiver serving https?)',
};

/** Socket and DNS codes (libuv, undici). */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection closed before an answer',
  UND_ERR_CLOSED: 'connection closed before an answer',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'host unreachable',
  ENOTFOUND: 'dns: host not found',
  EAI_AGAIN: 'dns: lookup failed (temporary)',
  EAI_FAIL: 'dns: lookup failed',
  ENODATA: 'dns: host not found',
  EUNSAFE: ADDRESS_NOT_ALLOWED,
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'answer too large',
};

/** Every fixed phrase an attempt can record (besides `timeout after …` and `http <status>`): the guide lists each. */
export const FIXED_FAILURE_PHRASES: readonly string[] = [
  ...new Set([
    ...Object.values(TLS_REASONS),
    ...Object.values(NETWORK_REASONS),
    'tls: handshake failed',
    HTTP_IN_PRODUCTION,
    COULD_NOT_SIGN,
    UNKNOWN_FAILURE,
  ]),
];

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The codes along an error's `cause` chain (undici wraps socket errors; AggregateError holds one per address). */
const codesOf = (error: unknown): string[] => {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    const { code, cause, errors } = value as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') codes.push(code);
    visit(cause);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner);
  };
  visit(error);
  return codes;
};

/** The phrase for an error thrown while sending; `timeoutMs` words the timeouts undici raises itself. */
export const failureReason = (error: unknown, timeoutMs: number): string => {
  const codes = codesOf(error);
  for (const code of codes) {
    const tls = TLS_REASONS[code];
    if (tls) return tls;
  }
  if (codes.some((code) => TIMEOUT_CODES.has(code))) return timeoutReason(timeoutMs);
  for (const code of codes) {
    const network = NETWORK_REASONS[code];
    if (network) return network;
  }
  if (codes.some((code) => code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL'))) return 'tls: handshake failed';
  return UNKNOWN_FAILURE;
};
