/**
 * URL patterns: how a user names "the on-topic sites" for `linkscent collect --positive` (seed
 * 000's automatic labelling, Han et al. 2010 §3.2: every link into a known on-topic domain is a
 * positive example) and wherever else a set of URLs is given by hand.
 */
import { parseUrl } from './normalize-url.ts';

/** A compiled pattern: true when the (normalised, absolute) URL matches. */
export type UrlMatcher = (url: string) => boolean;

/**
 * Compile a URL pattern. Two forms, told apart by their characters:
 *
 * 1. **Bare host name**: no `*`, `/` or `:` (e.g. `finance.sina.com.cn`, `例子.中国`). Matches
 *    every URL whose host is that host or one of its subdomains (`www.finance.sina.com.cn`), under
 *    any scheme, port, path and query. It does not match `xfinance.sina.com.cn`.
 * 2. **URL glob**: anything else. `*` matches any run of characters, `/` included, possibly empty;
 *    every other character matches itself. The glob must match the whole URL.
 *    - Without a scheme (`money.163.com/*`), the glob is matched against the URL minus its
 *      `http://` or `https://`, so either scheme matches (and other schemes never do).
 *    - With a scheme (`https://example.org/docs/*`, or `*://example.org/*`), against the whole URL.
 *    - A glob with no `/` after the scheme (`*.163.com`, `https://example.org`) names hosts only,
 *      so `/*` is appended: it matches every path on those hosts.
 *    - The host part (up to the first `/`) is compared case-insensitively (URLs are normalised to
 *      a lower-case host); the path and query are case-sensitive.
 *    - A port is part of the URL text: `example.org/*` does not match `example.org:8080/x`.
 *    - `https://example.org/docs/*` matches `/docs/` and below but not `/docs` itself.
 *
 * URLs are expected in `normalizeUrl()` form (fragment dropped, default port dropped).
 *
 * @throws Error when the pattern is empty or only white space.
 */
export function compileUrlPattern(pattern: string): UrlMatcher {
  const trimmed = pattern.trim();
  if (trimmed === '') throw new Error('URL pattern is empty: give a host name (example.org) or a URL glob (example.org/news/*)');
  if (!/[*/:]/.test(trimmed)) return hostMatcher(trimmed, pattern);
  return globMatcher(trimmed);
}

/** True when any of `matchers` matches `url`. */
export function matchesAny(url: string, matchers: readonly UrlMatcher[]): boolean {
  for (const matches of matchers) if (matches(url)) return true;
  return false;
}

/** Compile several patterns (each as `compileUrlPattern`) into one matcher that ORs them. */
export function compileUrlPatterns(patterns: readonly string[]): UrlMatcher {
  const matchers = patterns.map(compileUrlPattern);
  return (url) => matchesAny(url, matchers);
}

/**
 * The host a pattern names, if it names one: a bare host name (which names its subdomains too),
 * or a URL glob whose host part is written out, without `*` (port dropped). A glob with a `*`
 * in its host (`*.example.org`, or a host that is `*` alone) names no host. Host names come back
 * as the URL parser writes them (lower case, IDNA, an IPv6 address without brackets).
 */
export function namedHost(pattern: string): { host: string; subdomains: boolean } | undefined {
  const trimmed = pattern.trim();
  const bare = !/[*/:]/.test(trimmed);
  const afterScheme = trimmed.includes('://') ? trimmed.slice(trimmed.indexOf('://') + 3) : trimmed;
  const hostPart = bare ? trimmed : afterScheme.split('/', 1)[0]!;
  if (hostPart === '' || hostPart.includes('*')) return undefined;
  const hostname = parseUrl(`http://${hostPart}/`)?.hostname;
  if (!hostname) return undefined;
  return { host: hostname.replace(/^\[(.*)\]$/, '$1'), subdomains: bare };
}

function hostMatcher(host: string, pattern: string): UrlMatcher {
  // Through the URL parser, so the pattern's host is lower-cased and IDNA-encoded like the URLs'.
  const hostname = parseUrl(`http://${host}/`)?.hostname;
  if (hostname === undefined || hostname === '') throw new Error(`URL pattern is not a valid host name: ${JSON.stringify(pattern)}`);
  const suffix = `.${hostname}`;
  return (url) => {
    const urlHost = parseUrl(url)?.hostname;
    return urlHost !== undefined && (urlHost === hostname || urlHost.endsWith(suffix));
  };
}

function globMatcher(glob: string): UrlMatcher {
  const schemeEnd = glob.indexOf('://');
  const hasScheme = schemeEnd >= 0;
  const scheme = hasScheme ? glob.slice(0, schemeEnd + 3).toLowerCase() : '';
  let rest = hasScheme ? glob.slice(schemeEnd + 3) : glob;
  const slash = rest.indexOf('/');
  rest = slash < 0 ? `${rest.toLowerCase()}/*` : rest.slice(0, slash).toLowerCase() + rest.slice(slash);
  const compiled = scheme + rest;
  if (hasScheme) return (url) => globMatch(compiled, url);
  return (url) => {
    const withoutScheme = stripHttpScheme(url);
    return withoutScheme !== undefined && globMatch(compiled, withoutScheme);
  };
}

function stripHttpScheme(url: string): string | undefined {
  if (url.startsWith('https://')) return url.slice(8);
  if (url.startsWith('http://')) return url.slice(7);
  return undefined;
}

/**
 * Whole-string wildcard match, `*` = any run. The classic two-pointer algorithm that backtracks
 * only to the last `*`: O(|glob|·|text|) at worst, linear in practice, and never the exponential
 * blow-up a regular expression with several `.*` can hit on a long URL.
 */
function globMatch(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let starText = 0;
  while (t < text.length) {
    if (g < glob.length && glob[g] === '*') {
      star = g++;
      starText = t;
    } else if (g < glob.length && glob[g] === text[t]) {
      g++;
      t++;
    } else if (star >= 0) {
      g = star + 1;
      t = ++starText;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob[g] === '*') g++;
  return g === glob.length;
}
