import { lookup } from 'node:dns/promises';
import { isLoopbackHost } from '@credit/contract';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.ts';
import { validationError } from '../../core/api-error.ts';

/**
 * Whether receivers on this machine's loopback are allowed: in the sandbox unless its operator turned them off
 * (WEBHOOK_ALLOW_LOOPBACK_HTTP=false, a hosted sandbox shared by outside partners); never in production.
 */
export const loopbackReceiversAllowed = (config: Pick<Config, 'APP_ENV' | 'WEBHOOK_ALLOW_LOOPBACK_HTTP'>): boolean =>
  config.APP_ENV === 'sandbox' && config.WEBHOOK_ALLOW_LOOPBACK_HTTP;

/**
 * Only public unicast addresses may receive deliveries: loopback, private, link-local (which holds the
 * cloud metadata address 169.254.169.254), unique-local, CGNAT, multicast and reserved ranges are refused,
 * so a subscription cannot make our servers call into our own network. `allowLoopback` (loopbackReceiversAllowed)
 * also lets loopback through, so a receiver on the developer's machine works in a local sandbox.
 */
export const isAllowedAddress = (address: string, allowLoopback: boolean): boolean => {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range === 'unicast') return true;
  return allowLoopback && range === 'loopback';
};

/** Every address a host resolves to must be allowed; one private answer is enough to refuse. */
export const resolveAllowed = async (
  hostname: string,
  allowLoopback: boolean,
): Promise<{ address: string; family: number }[]> => {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' });
  const refused = addresses.find((a) => !isAllowedAddress(a.address, allowLoopback));
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

/** A sandbox whose operator turned loopback receivers off (WEBHOOK_ALLOW_LOOPBACK_HTTP=false) answers this for one. */
export const LOOPBACK_RECEIVERS_OFF =
  'must not be a loopback receiver: this sandbox does not deliver to http://localhost or other addresses of its own host; use a public https:// URL (for a receiver on your machine, a tunnel to it)';

/**
 * The creation-time check: a 400 naming `url` when it is http:// outside the sandbox, a loopback receiver where they
 * are turned off, or the host is unsafe or does not resolve.
 */
export const assertWebhookUrl = async (
  url: string,
  config: Pick<Config, 'APP_ENV' | 'WEBHOOK_ALLOW_LOOPBACK_HTTP'>,
): Promise<void> => {
  const { hostname, protocol } = new URL(url);
  if (protocol !== 'https:' && config.APP_ENV !== 'sandbox') {
    throw validationError([{ field: 'url', message: HTTPS_ONLY_IN_PRODUCTION }]);
  }
  const allowLoopback = loopbackReceiversAllowed(config);
  if (!allowLoopback && config.APP_ENV === 'sandbox' && (protocol !== 'https:' || isLoopbackHost(hostname))) {
    throw validationError([{ field: 'url', message: LOOPBACK_RECEIVERS_OFF }]);
  }
  try {
    await resolveAllowed(hostname, allowLoopback);
  } catch (error) {
    const message =
      error instanceof UnsafeAddressError
        ? 'must not point to a loopback, private, link-local or metadata address'
        : 'host does not resolve';
    throw validationError([{ field: 'url', message }]);
  }
};
