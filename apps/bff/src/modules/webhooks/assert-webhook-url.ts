import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.ts';
import { validationError } from '../../core/api-error.ts';

/**
 * Only public unicast addresses may receive deliveries: loopback, private, link-local (which holds the
 * cloud metadata address 169.254.169.254), unique-local, CGNAT, multicast and reserved ranges are refused,
 * so a subscription cannot make our servers call into our own network. Sandbox also allows loopback,
 * so a receiver on the developer's machine works.
 */
export const isAllowedAddress = (address: string, env: Config['APP_ENV']): boolean => {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range === 'unicast') return true;
  return env === 'sandbox' && range === 'loopback';
};

/** Every address a host resolves to must be allowed; one private answer is enough to refuse. */
export const resolveAllowed = async (
  hostname: string,
  env: Config['APP_ENV'],
): Promise<{ address: string; family: number }[]> => {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' });
  const refused = addresses.find((a) => !isAllowedAddress(a.address, env));
  if (refused) throw new UnsafeAddressError(host);
  return addresses;
};

export class UnsafeAddressError extends Error {
  /** What the delivery log reads for it (failure-reason.ts: `address not allowed`). */
  readonly code = 'EUNSAFE';
  constructor(host: string) {
    super(`${host} resolves to a loopback, private, link-local or reserved address`);
    this.name = 'UnsafeAddressError';
  }
}

/** Production's answer to an `http://` URL the contract let through (a loopback receiver, a sandbox convenience). */
export const HTTPS_ONLY_IN_PRODUCTION =
  'must be an https:// URL: production delivers only over TLS (http://localhost receivers work in the sandbox only)';

/** The creation-time check: a 400 naming `url` when it is http:// outside the sandbox, or the host is unsafe or does not resolve. */
export const assertWebhookUrl = async (url: string, env: Config['APP_ENV']): Promise<void> => {
  const { hostname, protocol } = new URL(url);
  if (protocol !== 'https:' && env !== 'sandbox') throw validationError([{ field: 'url', message: HTTPS_ONLY_IN_PRODUCTION }]);
  try {
    await resolveAllowed(hostname, env);
  } catch (error) {
    const message =
      error instanceof UnsafeAddressError
        ? 'must not point to a loopback, private, link-local or metadata address'
        : 'host does not resolve';
    throw validationError([{ field: 'url', message }]);
  }
};
