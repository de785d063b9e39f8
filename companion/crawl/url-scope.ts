/**
 * The crawl's scope: which links may be queued at all (issue 11), as ACHE's link filters,
 * Nutch's URL filters and crawlee's enqueue strategies offer. Three rules, checked in this order:
 *
 *   1. `deny` patterns: a URL matching any is out (the same globs as `--positive`:
 *      `*` = any run of characters, or a bare host name);
 *   2. `allow` patterns: when any are given, a URL must match one;
 *   3. `scope`: `any` (every host), `seed-hosts` (the seeds' host names exactly), or
 *      `seed-domains` (the seeds' registrable domains, by the Public Suffix List: a seed on
 *      `news.example.com.cn` admits `www.example.com.cn`; an IP address or a single-label
 *      name such as `localhost` is its own domain).
 *
 * A link out of scope is never queued (`follow-links.ts`), so its host is never looked up in
 * DNS, asked for robots.txt or fetched. Seeds are the user's own choice and always crawled.
 */
import { getDomain } from 'tldts';
import { compileUrlPatterns, type UrlMatcher } from '../../shared/urls/url-pattern.ts';
import { urlHost } from '../../shared/urls/normalize-url.ts';

export const SCOPES = ['any', 'seed-hosts', 'seed-domains'] as const;
export type Scope = (typeof SCOPES)[number];

/** Today's default, kept (issue 11): the focused strategies stay on topic by their order, not by a fence. */
export const DEFAULT_SCOPE: Scope = 'any';

export interface ScopeRules {
  scope: Scope;
  /** URL patterns a link must match one of (none: no such rule). */
  allow: readonly string[];
  /** URL patterns no link may match. */
  deny: readonly string[];
}

/** The registrable domain of a host name: eTLD+1, or the host itself (an IP, `localhost`). */
export function registrableDomain(host: string): string {
  return getDomain(host, { allowPrivateDomains: false }) ?? host;
}

/**
 * A test for links, or undefined when every link is in scope. Throws a RangeError naming a bad
 * pattern or scope.
 */
export function compileScope(rules: ScopeRules, seeds: readonly string[]): ((url: string) => boolean) | undefined {
  if (!(SCOPES as readonly string[]).includes(rules.scope)) throw new RangeError(`scope must be one of ${SCOPES.join(', ')}, got "${rules.scope}"`);
  const deny: UrlMatcher | undefined = rules.deny.length > 0 ? compileUrlPatterns(rules.deny) : undefined;
  const allow: UrlMatcher | undefined = rules.allow.length > 0 ? compileUrlPatterns(rules.allow) : undefined;
  const seedHosts = seeds.map((seed) => urlHost(seed)).filter((host): host is string => host !== undefined);
  let inHosts: ((host: string) => boolean) | undefined;
  if (rules.scope === 'seed-hosts') {
    const hosts = new Set(seedHosts);
    inHosts = (host) => hosts.has(host);
  } else if (rules.scope === 'seed-domains') {
    const domains = new Set(seedHosts.map(registrableDomain));
    inHosts = (host) => domains.has(registrableDomain(host));
  }
  if (!deny && !allow && !inHosts) return undefined;
  return (url) => {
    if (deny?.(url)) return false;
    if (allow && !allow(url)) return false;
    if (!inHosts) return true;
    const host = urlHost(url);
    return host !== undefined && inHosts(host);
  };
}
