/**
 * Which network addresses the engine may fetch an `audio_url` from. On a
 * network interface (`--host 0.0.0.0`) the engine is a service for other
 * machines, and fetching their URLs must not reach this machine or its
 * private network (a port scanner, or a way into local services); on
 * loopback the caller is already on this machine, so nothing is refused.
 * The check runs on resolved addresses, inside the connection's own DNS
 * lookup, so a name cannot resolve to a public address for the check and a
 * private one for the connection.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, shared (CGNAT), multicast, reserved, unspecified: never fetched from a network-facing engine. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** Whether `ip` (an IPv4 or IPv6 literal, brackets allowed) is loopback, private, link-local or otherwise not public. IPv4-mapped IPv6 counts as its IPv4. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  if (family === 6) {
    // BlockList matches ::ffff:a.b.c.d against IPv4 rules itself; the IPv4-compatible form (::a.b.c.d, deprecated) is checked by hand.
    const compat = /^::(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    if (compat?.[1]) return PRIVATE.check(compat[1], 'ipv4');
    return PRIVATE.check(bare, 'ipv6');
  }
  return false;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether the engine's listening address is loopback (the app's case): then every target is allowed. */
export function isLoopbackListen(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

export class BlockedAddressError extends Error {
  constructor() {
    super('blocked address');
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses names resolving to a blocked
 * address (null: nothing is). Every resolved address must pass: one private
 * answer among public ones is refused too (a rebinding name can list both).
 */
export function guardedLookup(blocked: ((ip: string) => boolean) | null) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses;
      if (blocked && (list.length === 0 || list.some((a) => blocked(a.address)))) return callback(new BlockedAddressError(), '');
      if ((options as LookupAllOptions).all) return callback(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
