/**
 * Which webhook targets may be called. A webhook to a loopback, private, link-local or unique-local
 * address reaches the server's own network (its admin panel, the database, a cloud's metadata
 * service): refused unless `server.webhooks.allowPrivateAddresses` says so, which defaults to true
 * outside production, as Strapi 5.54 checks only there (with its words, at creation). The check is
 * made at creation and again before every attempt, since a name may resolve elsewhere later.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const NOT_PUBLIC = "Url is not supported because it isn't reachable over the public internet";

const PRIVATE = new BlockList();
for (const [network, prefix] of [
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
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is outside the public internet (IPv4-mapped IPv6 judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why `url` may not be called, or undefined: every address its host resolves to must be public. */
export async function privateTargetProblem(url: string, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  let hostname: string;
  try {
    hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return NOT_PUBLIC;
  }
  let addresses: string[];
  try {
    addresses = isIP(hostname)
      ? [hostname]
      : (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return NOT_PUBLIC;
  }
  return addresses.length === 0 || addresses.some(isPrivateAddress) ? NOT_PUBLIC : undefined;
}
