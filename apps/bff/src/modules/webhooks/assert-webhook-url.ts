import { lookup } from 'node:dns/promises';
import { isLoopbackHost } from '@credit/contract';
import ipaddr from 'ipaddr.js';
import type { Config } from '../../config.ts';
import { validationError } from '../../core/api-error.ts';

/**
 * Whether receivers on this machine's loopback are allowed: in a sandbox that turned them on for local development
 * (WEBHOOK_ALLOW_LOOPBACK_HTTP=true, as `pnpm start` does); never in production.
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
  const parsed = ipaddr.parse(address);
  const judged = parsed.kind() === 'ipv6' ? (embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed) : parsed;
  const range = judged.range();
  if (range === 'unicast') return true;
  return allowLoopback && range === 'loopback';
};

/**
 * The IPv4 address an IPv6 address carries and routes to, judged in its place: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated but still routed by some stacks),
 * NAT64 (`64:ff9b::a.b.c.d`), 6to4 (`2002:AABB:CCDD::`) and Teredo's client (`2001:0::…`, inverted). `[::127.0.0.1]`
 * is loopback, `[::169.254.169.254]` the metadata address, whatever the IPv6 range tables call them.
 */
const embeddedIPv4 = (v6: ipaddr.IPv6): ipaddr.IPv4 | undefined => {
  const bytes = v6.toByteArray();
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const at = (offset: number, invert = false) =>
    new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((b) => (invert ? b ^ 0xff : b)));
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return at(12);
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return at(12);
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, judged as IPv6.
  if (zero(0, 12) && !zero(12, 15)) return at(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return at(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return at(2);
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && zero(2, 4)) return at(12, true);
  return undefined;
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

/** A sandbox without loopback receivers (WEBHOOK_ALLOW_LOOPBACK_HTTP off, the default) answers this for one. */
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
