/**
 * The fixed half of deciding which of a page's links may be followed (`follow-links.ts`): what
 * the page's markup says (`rel="nofollow"`, `<meta name="robots" content="nofollow">`), a link
 * back to the page itself, the trap-shaped URLs (`traps.ts`) and the crawl's scope
 * (`url-scope.ts`). None of it changes while a crawl runs, so it is decided where the page is
 * parsed, on a parse thread (`parse/parse-page.ts`): per link, a URL parse, a trap check and the
 * scope's patterns were a tenth of a breadth-first crawl's event loop on the crawl bench. What
 * does change (a host's page cap, the depth limit against the page's depth) is left to the loop.
 *
 * The rules travel as plain data (`LinkRules`, sent to a thread once per crawl) and are compiled
 * where they are used, by one function, so a thread and the event loop decide alike.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import { parseUrl } from '../../shared/urls/normalize-url.ts';
import { SightingFilter } from '../../shared/tokens/sighting-filter.ts';
import { UrlCache, type UrlCacheLimits } from '../../shared/urls/url-cache.ts';
import { trapReasonOf, type TrapCaps } from './traps.ts';
import { compileScope, type ScopeRules } from './url-scope.ts';

/** The crawl's fixed link rules as plain data (structured-cloneable). */
export interface LinkRules {
  traps: TrapCaps;
  scope: ScopeRules;
  /** Every seed of the crawl, stored ones included: the scope's `seed-hosts` and `seed-domains` read them. */
  seeds: readonly string[];
}

/** `LinkRules` made ready to test links with. */
export interface CompiledLinkRules {
  /** What they were compiled from: what a parse thread is sent. */
  readonly source: LinkRules;
  readonly traps: TrapCaps;
  /** Which links may be queued (`url-scope.ts`); undefined: every one. */
  readonly inScope?: (url: string) => boolean;
  /**
   * Per URL, what the rules say of it alone (`ruleVerdict`), kept across pages: a crawl's pages
   * link the same navigation, index and footer URLs over and over (on the crawl bench's local
   * web, judging each link afresh was 9 % of a parse thread). Bounded (`VERDICT_CACHE`).
   */
  readonly verdicts: UrlCache<string | null>;
  /**
   * Which URLs were judged lately: a verdict is kept from a URL's second sighting on. On a site
   * whose every page links a thousand new URLs (the frontier bench's), keeping each first
   * verdict made `followableHosts` 50 % dearer (insertions into a table of 16,384 and the
   * generations' garbage) for entries never asked for again; the filter's hash is a tenth of that.
   */
  readonly judged: SightingFilter;
}

/**
 * The verdict cache's bounds: 32,768 URLs or 2 M characters of them, whichever comes first
 * (about 2 MB of keys: a normalised URL is ASCII, which V8 keeps in a byte a character; each
 * value is a host name or null). The crawl bench's 2,000-page crawl judges about 10,000.
 */
export const VERDICT_CACHE: UrlCacheLimits = { maxEntries: 32_768, maxKeyChars: 2_000_000 };

/** URLs `CompiledLinkRules.judged` remembers (256 KiB): more than two generations of the cache hold. */
const JUDGED_SLOTS = 2 ** 16;

/** Throws a RangeError naming a bad scope or pattern (`compileScope`). */
export function compileLinkRules(source: LinkRules): CompiledLinkRules {
  const inScope = compileScope(source.scope, source.seeds);
  return { source, traps: source.traps, ...(inScope ? { inScope } : {}), verdicts: new UrlCache(VERDICT_CACHE), judged: new SightingFilter(JUDGED_SLOTS) };
}

/**
 * What the fixed rules say of `url` alone, whatever page links it: its host when it is no trap,
 * in scope and has a host, else null. The same for a URL every time (the rules do not change
 * while a crawl runs), which is what lets `followableHosts` keep it across pages.
 */
export function ruleVerdict(url: string, rules: Pick<CompiledLinkRules, 'traps' | 'inScope'>): string | null {
  const { traps, inScope } = rules;
  // parseUrl(url)?.hostname is hostOf(url), the host the caps and budgets are keyed on.
  const parsed = url.length <= traps.maxUrlLength ? parseUrl(url) : undefined;
  if (trapReasonOf(url, parsed, traps) === null && (!inScope || inScope(url)) && parsed!.hostname !== '') return parsed!.hostname;
  return null;
}

/**
 * For each of the page's links (`contexts[i]`), its host when the page and the fixed rules let it
 * be followed, else null. `askedUrl` is the URL the crawl fetched and `finalUrl` the one it ended
 * at (after redirects): a link to either is the page itself. A URL linked several times is
 * judged once, and parsed once, for its trap shape and its host together; a URL judged on an
 * earlier page is not judged again (`CompiledLinkRules.verdicts`).
 */
export function followableHosts(askedUrl: string, finalUrl: string, page: PageSegments, contexts: readonly LinkContext[], rules: CompiledLinkRules): (string | null)[] {
  if (page.robots.nofollow) return contexts.map(() => null);
  const followable = new Set<string>();
  for (const segment of page.segments) if (segment.kind === 'link' && !segment.nofollow) followable.add(segment.url);
  const known = rules.verdicts;
  return contexts.map(({ url }) => {
    if (!followable.has(url) || url === finalUrl || url === askedUrl) return null;
    let host = known.get(url);
    if (host === undefined) {
      host = ruleVerdict(url, rules);
      if (rules.judged.sight(url)) known.set(url, host);
    }
    return host;
  });
}
