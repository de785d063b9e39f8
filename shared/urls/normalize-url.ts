/**
 * URL resolution and normalisation for links found in pages.
 *
 * Every link URL in the pipeline passes through `normalizeUrl()`, so the extension (resolving
 * `getAttribute('href')` from the live DOM) and the companion (resolving htmlparser2's
 * attributes) produce byte-identical URLs for the same markup, and the crawler's frontier and
 * dedupe see one spelling per page.
 *
 * We use the WHATWG `URL` class, present in browsers, workers and Node alike. `shared/` compiles
 * without the DOM lib (and the root tsconfig has DOM lib *and* Node's own global `URL`), so an
 * ambient `declare var URL` would clash with one or the other; instead we reach the constructor
 * through `globalThis` under the few members we use.
 */

/** The members of a WHATWG `URL` object the pipeline reads or writes. */
export interface WhatwgUrl {
  href: string;
  protocol: string;
  hostname: string;
  host: string;
  pathname: string;
  search: string;
  hash: string;
}

type WhatwgUrlConstructor = new (input: string, base?: string) => WhatwgUrl;

const UrlConstructor = (globalThis as unknown as { URL: WhatwgUrlConstructor }).URL;

/** `new URL(input, base)`, or `undefined` where the constructor would throw. */
export function parseUrl(input: string, base?: string): WhatwgUrl | undefined {
  try {
    return base === undefined ? new UrlConstructor(input) : new UrlConstructor(input, base);
  } catch {
    return undefined;
  }
}

/**
 * Resolve `href` against `base` and normalise it, or `undefined` when it is not a followable
 * web link.
 *
 * - Resolution is the WHATWG URL parser's, as in a browser: leading and trailing C0 controls and
 *   spaces are stripped and tabs / newlines inside the href removed (an href split over lines
 *   still works), the host is lower-cased (and IDNA-encoded), a default port (`:80` on http,
 *   `:443` on https) is dropped, the path's `.` / `..` segments are resolved.
 * - Only `http:` and `https:` survive: `javascript:`, `mailto:`, `tel:`, `data:`, `ftp:` and any
 *   other scheme give `undefined`, as does an href the parser rejects (`http://[bad`).
 * - The fragment is dropped: `page#a` and `page#b` are one page to a crawler.
 *
 * Not done: the query is percent-encoded as UTF-8 (a browser would use the page's charset, so a
 * raw non-ASCII query on a GBK page differs from the browser's `a.href`; such hrefs are rare, as
 * CMSs percent-encode). An empty or fragment-only href resolves to the page itself, as a browser
 * does; callers that want no self-links compare with the page URL.
 */
export function normalizeUrl(href: string, base: string): string | undefined {
  // `new URL(href, base)` throws on a bad base even when href is absolute; an absolute href
  // stands on its own, so it is tried alone then.
  const url = parseUrl(href, base) ?? parseUrl(href);
  if (url === undefined) return undefined;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // The href without its fragment, as `url.hash = ''` would give it, without the setter's second
  // serialisation (2–3 % of a crawl's parse thread). A serialised URL percent-encodes `#` in its
  // user info, path and query, and a host cannot hold one, so its first `#` starts the fragment
  // (an empty one included: `page#`).
  const resolved = url.href;
  const hash = resolved.indexOf('#');
  return hash < 0 ? resolved : resolved.slice(0, hash);
}

/** The lower-case host name of `url` (no port), or `undefined` when `url` does not parse. */
export function urlHost(url: string): string | undefined {
  return parseUrl(url)?.hostname;
}

/** The host name politeness, caps and exclusions are keyed on (no port); '' for a string that does not parse. */
export function hostOf(url: string): string {
  return urlHost(url) ?? '';
}
