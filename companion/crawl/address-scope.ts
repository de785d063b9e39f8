/**
 * The crawl's address rule (issue 13): which addresses its requests may connect to, so that a
 * page on the web cannot make the crawler call services on the user's own machine or network
 * (SSRF: `http://127.0.0.1:7431/api/…`, a router's admin page, a cloud metadata service).
 *
 *   - never: 0.0.0.0 (and ::, multicast, reserved ranges), whatever the seeds and patterns;
 *   - public addresses: always;
 *   - loopback and private addresses (`fetch/address-guard.ts` has the ranges): only when a seed
 *     is on an address of that kind (seeds on 127.0.0.1 allow loopback, seeds on a 10.x intranet
 *     allow private addresses), or when an `--allow` pattern names the host (`--allow 10.0.0.5`,
 *     `--allow 'http://intranet.local/*'`; a wildcard host names nothing).
 *
 * The rule is applied when a request connects, to the addresses its host name resolves to then
 * (`fetch/address-guard.ts`), not to the URL's text, so a name that resolves to a public address
 * once and to 127.0.0.1 the next time (DNS rebinding) is refused too. The seeds' own kinds are
 * found by resolving them once, as the crawl starts.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { namedHost } from '../../shared/urls/url-pattern.ts';
import { urlHost } from '../../shared/urls/normalize-url.ts';
import { addressKind as ianaKind, type AddressKind, type AddressRule, type LookupFunction } from '../fetch/address-guard.ts';

export interface AddressScopeOptions {
  /** Every seed of the crawl (a resumed crawl's stored ones included). */
  seeds: readonly string[];
  /** The crawl's `--allow` patterns: a host one of them names may be on any kind of address but `never`. */
  allow: readonly string[];
  /** Default: the system resolver. */
  lookup?: LookupFunction;
  /** Default: IANA's special-purpose ranges (`fetch/address-guard.ts`). */
  addressKind?: (address: string) => AddressKind;
}

/** The rule for a crawl of `seeds` (see the file header). */
export async function compileAddressScope(options: AddressScopeOptions): Promise<AddressRule> {
  const kindOf = options.addressKind ?? ianaKind;
  const seedKinds = new Set<AddressKind>();
  const hosts = new Set(options.seeds.map((seed) => urlHost(seed)).filter((host): host is string => host !== undefined));
  await Promise.all(
    [...hosts].map(async (host) => {
      for (const address of await addressesOf(unbracketed(host), options.lookup ?? (dnsLookup as unknown as LookupFunction))) seedKinds.add(kindOf(address));
    }),
  );
  const named = options.allow.map(namedHost).filter((name) => name !== undefined);
  const isNamed = (hostname: string) => named.some(({ host, subdomains }) => hostname === host || (subdomains && hostname.endsWith(`.${host}`)));

  return (hostname, address) => {
    const kind = kindOf(address);
    const at = hostname === address ? address : `${hostname} (${address})`;
    if (kind === 'never') return `${at} is never fetched: an unspecified, multicast or reserved address`;
    if (kind === 'public' || seedKinds.has(kind) || isNamed(unbracketed(hostname).toLowerCase())) return undefined;
    return `${at} is a ${kind} address and no seed is: not fetched (an --allow pattern naming the host lets it in)`;
  };
}

/** The addresses a seed's host is at: itself for an IP literal, else what the resolver says (none on failure). */
function addressesOf(host: string, lookup: LookupFunction): Promise<string[]> {
  if (isIP(host)) return Promise.resolve([host]);
  return new Promise((resolve) => {
    lookup(host, { all: true }, (error, found) => {
      if (error) return resolve([]); // an unresolvable seed adds no kind; it fails on its own
      resolve(Array.isArray(found) ? (found as LookupAddress[]).map((entry) => entry.address) : [found]);
    });
  });
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
