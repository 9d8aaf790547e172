import ipaddr from 'ipaddr.js';
import { ApiError } from '../core/api-error.ts';

/** Accepts IPv4/IPv6 addresses and CIDRs; answers the ones that do not parse. */
export const invalidCidrs = (entries: string[]): string[] =>
  entries.filter((entry) => {
    try {
      if (entry.includes('/')) ipaddr.parseCIDR(entry);
      else ipaddr.parse(entry);
      return false;
    } catch {
      return true;
    }
  });

const matches = (address: ipaddr.IPv4 | ipaddr.IPv6, entry: string): boolean => {
  const [range, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), undefined];
  if (address.kind() !== range.kind()) return false;
  return address.match([range, bits ?? (range.kind() === 'ipv4' ? 32 : 128)] as never);
};

/** Whether a caller at `ip` is in one of the client's allow-listed ranges (an empty allowlist allows every address). */
export const ipAllowed = (allowlist: string[], ip: string | undefined): boolean => {
  if (allowlist.length === 0) return true;
  const address = ip && ipaddr.isValid(ip) ? ipaddr.process(ip) : undefined;
  return address !== undefined && allowlist.some((entry) => matches(address, entry));
};

/** Production callers must come from one of the client's allow-listed ranges, when it has any. */
export const assertIpAllowed = (allowlist: string[], ip: string | undefined): void => {
  if (!ipAllowed(allowlist, ip)) {
    throw new ApiError('AUTHORIZATION_ERROR', 'Requests from this IP address are not allowed for this client.');
  }
};
