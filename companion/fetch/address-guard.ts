/**
 * Which addresses a request may connect to, decided when it connects (SSRF and DNS rebinding):
 * a name is resolved, every address it resolves to is checked, and the connection goes only to
 * an address that passed. Checking the URL's text is not enough: `http://news.example/` may
 * resolve to 127.0.0.1, and a name may resolve to a public address when it is looked at and to
 * a loopback one a moment later when it is connected to. An IP literal (`http://10.0.0.5/`,
 * `http://[::1]/`, `http://0/`) is checked as it is; nothing is looked up.
 *
 * What the rule is belongs to the caller (`crawl/address-scope.ts` for a crawl); this module
 * classifies addresses and enforces a rule in an undici connector.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { buildConnector } from 'undici';

/**
 * The kind of network an address is on (IANA's special-purpose registries):
 * - `loopback`: 127.0.0.0/8, ::1;
 * - `private`: 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), 169.254/16 and
 *   fe80::/10 (link-local, where cloud metadata services answer), fc00::/7, 198.18/15;
 * - `never`: what no crawl should ever connect to: 0.0.0.0/8 and :: (on Linux a connection to
 *   0.0.0.0 reaches this very machine), multicast, broadcast, reserved and documentation ranges;
 * - `public`: everything else.
 * An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is the IPv4 address it maps.
 */
export type AddressKind = 'public' | 'private' | 'loopback' | 'never';

function blockList(subnets: readonly string[]): BlockList {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [address, prefix] = subnet.split('/') as [string, string];
    list.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const KINDS: readonly [Exclude<AddressKind, 'public'>, BlockList][] = [
  ['never', blockList(['0.0.0.0/8', '224.0.0.0/4', '240.0.0.0/4', '192.0.0.0/24', '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '::/128', 'ff00::/8', '100::/64', '2001:db8::/32'])],
  ['loopback', blockList(['127.0.0.0/8', '::1/128'])],
  ['private', blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '198.18.0.0/15', 'fc00::/7', 'fe80::/10'])],
];

/** The kind of an IP address (see `AddressKind`); `never` for a string that is not one. */
export function addressKind(address: string): AddressKind {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return 'never';
  for (const [kind, list] of KINDS) if (list.check(bare, family === 6 ? 'ipv6' : 'ipv4')) return kind;
  return 'public';
}

/** Why a host name may not be reached at an address, or undefined when it may. */
export type AddressRule = (hostname: string, address: string) => string | undefined;

/** Node's `dns.lookup` shape (callback form), which tests replace with a stub that records names. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** A connection the rule refused; `fetch-errors.ts` makes it the outcome `address-denied`. */
export class AddressDeniedError extends Error {
  override readonly name = 'AddressDeniedError';
  readonly code = 'LINKSCENT_ADDRESS_DENIED';
}

export interface GuardOptions {
  connectTimeoutMs: number;
  rule: AddressRule;
  /** Default: the system resolver (`dns.lookup`). */
  lookup?: LookupFunction;
}

type Connector = ReturnType<typeof buildConnector>;

/** An undici connector that connects only where `rule` allows (see the file header). */
export function guardedConnector({ connectTimeoutMs, rule, lookup = dnsLookup as unknown as LookupFunction }: GuardOptions): Connector {
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '');
      const addresses = (Array.isArray(found) ? found : [{ address: found, family: isIP(found) }]) as LookupAddress[];
      const allowed: LookupAddress[] = [];
      let refusal: string | undefined;
      for (const entry of addresses) {
        const why = rule(hostname, entry.address);
        if (why === undefined) allowed.push(entry);
        else refusal ??= why;
      }
      const first = allowed[0];
      if (!first) return callback(new AddressDeniedError(refusal ?? `${hostname} resolves to no address`), '');
      if (options.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
  const connect = buildConnector({ timeout: connectTimeoutMs, lookup: checkedLookup as never });
  return (options, callback) => {
    const host = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname;
    const why = isIP(host) ? rule(host, host) : undefined;
    if (why === undefined) connect(options, callback);
    else queueMicrotask(() => callback(new AddressDeniedError(why), null));
  };
}
