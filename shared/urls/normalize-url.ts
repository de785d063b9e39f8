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
import { ownString } from '../tokens/own-string.ts';

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

/**
 * `normalizeUrl(href, base)` for the many hrefs of one page, the same for every href, faster for
 * the common ones: a relative path of plain characters (`os.html`, `../library/os.html#sec`),
 * which is the base's directory (up the `../`s) and the path, joined, and a root-relative one
 * (`/news/a.html`), which is the base's root and the path. On the crawl bench's pages four links
 * in five are relative, and the URL parser they skip was 8 % of segmenting; on the extension
 * bench's page, whose links are root-relative as on most CMS-built sites, the parser and its
 * `href` were 18 of the 62 ms a 5,000-link walk took in Chromium (helper-50's profile).
 *
 * Plain: ASCII letters, digits, `-`, `_`, `~`, `.` and `/`, none of which the URL parser
 * percent-encodes, drops or reads as a scheme, port or query; no `.` or `..` segment past the
 * leading `./`s and `../`s, no `//` (nor a leading one). Anything after `#` is the fragment,
 * which the parser never rejects and `normalizeUrl` drops. Every other href, and every href of a
 * base that is not http(s), goes to `normalizeUrl`.
 */
export function urlResolver(base: string): (href: string) => string | undefined {
  const slow = (href: string) => normalizeUrl(href, base);
  const parsed = parseUrl(base);
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return slow;
  // A serialised http(s) URL is `scheme://[userinfo@]host[:port]` then its path, which starts at
  // the first `/` after `//` (user info percent-encodes its `/`s) and is what `pathname` gives.
  const { href: baseHref, pathname } = parsed;
  const pathStart = baseHref.indexOf('/', parsed.protocol.length + 2);
  if (pathStart < 0 || !baseHref.startsWith(pathname, pathStart) || !pathname.startsWith('/')) return slow;
  const root = baseHref.slice(0, pathStart);
  const directory = pathname.slice(0, pathname.lastIndexOf('/') + 1);
  return (href) => {
    const fragment = href.indexOf('#');
    let path = fragment < 0 ? href : href.slice(0, fragment);
    if (path === '' || !isPlainPath(path)) return slow(href);
    let dir = directory;
    if (path.charCodeAt(0) === 0x2f) {
      // Root-relative (`/news/a.html`, what CMSs write): from the root, as if the base's
      // directory were `/`. A second `/` (`//host/x`, a host of its own) is left leading the
      // rest, which the dot-segment check below sends to the parser.
      dir = '/';
      path = path.slice(1);
    }
    for (;;) {
      if (path.startsWith('./')) path = path.slice(2);
      else if (path.startsWith('../')) {
        path = path.slice(3);
        // Up one directory; the root stays the root, as the parser's "shorten" does.
        if (dir.length > 1) dir = dir.slice(0, dir.lastIndexOf('/', dir.length - 2) + 1);
      } else break;
    }
    if (hasDotSegmentOrEmpty(path)) return slow(href);
    // Its own string: `path` is a slice of the href, which htmlparser2 slices from the page's
    // HTML, and the URL outlives the page (the parse thread's verdict cache, a frontier's maps
    // when pages are parsed on the event loop): a rope of it would keep the page alive
    // (`ownString`). The URL parser's `href` was a new string; so is this.
    return ownString(root + dir + path);
  };
}

/** Only the characters `urlResolver` joins as they are: A–Z a–z 0–9 - . _ ~ / */
function isPlainPath(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x2d && c <= 0x39) || c === 0x5f || c === 0x7e) continue;
    return false;
  }
  return true;
}

/** A `.` or `..` segment, or an empty one inside (`//`), in what is left after the leading ones. */
function hasDotSegmentOrEmpty(path: string): boolean {
  return (
    path === '.' || path === '..' || path.startsWith('/') || path.includes('//') ||
    path.includes('/./') || path.includes('/../') || path.endsWith('/.') || path.endsWith('/..') ||
    path.startsWith('./') || path.startsWith('../')
  );
}
