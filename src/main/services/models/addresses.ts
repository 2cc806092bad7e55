/**
 * Which hosts are this machine's or its network's own (loopback, private,
 * link-local, carrier-grade NAT, multicast, reserved): a mirror's redirect may
 * not lead the downloader to one, so a hostile mirror cannot make Verbatim
 * send requests to services inside the network, unless the mirror itself is
 * such a host (a mirror on the LAN redirecting within the LAN).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const inside = new BlockList();
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
  ['224.0.0.0', 3], // multicast and reserved, through 255.255.255.255
] as const)
  inside.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127], // :: and ::1
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const)
  inside.addSubnet(net, bits, 'ipv6');

/** Whether an IP address (v4, v6, or v4 mapped into v6) belongs to this machine or its private network. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return inside.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return inside.check(bare, 'ipv4');
  if (family === 6) return inside.check(bare, 'ipv6');
  return false;
}

/** Whether a URL's host name is private by its own spelling: an address inside, `localhost`, or a name of one label (found on the local network). */
export function isPrivateName(hostname: string): boolean {
  const h = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(h)) return isPrivateAddress(h);
  return h === 'localhost' || h.endsWith('.localhost') || !h.includes('.') || h.endsWith('.local') || h.endsWith('.internal');
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for sockets that refuses a name resolving to a private address (checked after DNS, so a public name pointing inside is caught too). */
export function publicOnlyLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses;
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const e = Object.assign(new Error(`${hostname} resolves to a private address (${bad.address})`), { code: 'ERR_PRIVATE_REDIRECT' });
      return callback(e, '');
    }
    if ((options as LookupAllOptions).all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}
