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
}

/** Throws a RangeError naming a bad scope or pattern (`compileScope`). */
export function compileLinkRules(source: LinkRules): CompiledLinkRules {
  const inScope = compileScope(source.scope, source.seeds);
  return { source, traps: source.traps, ...(inScope ? { inScope } : {}) };
}

/**
 * For each of the page's links (`contexts[i]`), its host when the page and the fixed rules let it
 * be followed, else null. `askedUrl` is the URL the crawl fetched and `finalUrl` the one it ended
 * at (after redirects): a link to either is the page itself. A URL linked several times is
 * judged once, and parsed once, for its trap shape and its host together.
 */
export function followableHosts(askedUrl: string, finalUrl: string, page: PageSegments, contexts: readonly LinkContext[], rules: CompiledLinkRules): (string | null)[] {
  if (page.robots.nofollow) return contexts.map(() => null);
  const followable = new Set<string>();
  for (const segment of page.segments) if (segment.kind === 'link' && !segment.nofollow) followable.add(segment.url);
  const { traps, inScope } = rules;
  const verdicts = new Map<string, string | null>();
  return contexts.map(({ url }) => {
    let host = verdicts.get(url);
    if (host === undefined) {
      host = null;
      if (followable.has(url) && url !== finalUrl && url !== askedUrl) {
        // parseUrl(url)?.hostname is hostOf(url), the host the caps and budgets are keyed on.
        const parsed = url.length <= traps.maxUrlLength ? parseUrl(url) : undefined;
        if (trapReasonOf(url, parsed, traps) === null && (!inScope || inScope(url)) && parsed!.hostname !== '') host = parsed!.hostname;
      }
      verdicts.set(url, host);
    }
    return host;
  });
}
