import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Host names every loopback-bound gateway answers to, whatever loopback address it is bound to. */
const LOCAL_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * True when `http.host` binds the gateway to loopback only (localhost, any
 * address in 127.0.0.0/8, ::1 in any spelling), where Host names are checked.
 */
export function isLoopbackBind(host: string): boolean {
  const address = unbracketed(host);
  if (address.toLowerCase() === 'localhost') return true;
  const family = isIP(address);
  if (family === 0) return false;
  // BlockList matches an IPv4-mapped IPv6 address (::ffff:127.0.0.2) against the IPv4 subnet.
  return LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The Host names (without port) a loopback-bound gateway answers to: the
 * local names and the bound address itself, as a Host header spells it.
 */
export function loopbackHostNames(host: string): Set<string> {
  const names = new Set(LOCAL_HOST_NAMES);
  const bound = canonicalHostName(host);
  if (bound !== undefined) names.add(bound);
  return names;
}

/**
 * A Host name as a browser writes it: lower case, an IPv6 address bracketed
 * in its shortest form; undefined when it is no valid host name.
 */
export function canonicalHostName(name: string): string | undefined {
  const address = unbracketed(name);
  const literal = isIP(address) === 6 ? `[${address}]` : address;
  try {
    const url = new URL(`http://${literal}/`);
    // Anything that parses as more than a host name (a path, user info) is no host name.
    const onlyHost = url.pathname === '/' && url.username === '' && url.search === '';
    return onlyHost && url.port === '' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
