/**
 * Which of a page's links go to the frontier, and with what entry.
 *
 * Not followed: every link of a page with `<meta name="robots" content="nofollow">`; a link
 * whose every occurrence on the page is `rel="nofollow"`; a link to the page itself; a link
 * deeper than maxDepth; a trap-shaped URL (`traps.ts`); a link out of the crawl's scope
 * (`url-scope.ts`); a link to a host that reached its page cap. A URL linked several times on
 * one page enters once, with its highest score, lowered by its host's budget step
 * (`host-budget.ts`). The link's context and the page's judgement are kept with the entry when
 * the crawl asks (`keepContexts`): what a re-scoring strategy scores from and `linkscent why` shows.
 *
 * Two steps, so that a crawl scores only the links it follows (`process-url.ts`): on the local
 * web of the crawl bench a quarter of a page's links leave the crawl's scope and a third lead to
 * pages already fetched, and scoring them was most of nb's scoring work for nothing.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import { hostOf, parseUrl } from '../../shared/urls/normalize-url.ts';
import type { FrontierEntry } from '../store/records.ts';
import type { UrlTask } from './crawl-hooks.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { trapReasonOf } from './traps.ts';

/** What following needs besides the page: the crawl's rules and the strategy's wishes. */
export interface FollowRules extends Pick<CrawlOptions, 'maxDepth' | 'traps'> {
  /** Which links may be queued (`url-scope.ts`); undefined: every one. */
  inScope?: (url: string) => boolean;
  /** Whether a host still takes pages (its page cap). */
  hostOpen(host: string): boolean;
  /** How far below its score a URL of the host is queued (the host budget). */
  hostPenalty(host: string): number;
  strategyName: string;
  /** Keep each link's context with its entry (the strategy scores queued URLs again). */
  keepContexts: boolean;
  /** The page's judgement, kept with its links' entries; undefined when not judged. */
  onTopic?: boolean;
}

/**
 * Whether each of the page's links (`contexts[i]`) may go to the frontier; scores play no part.
 * `hosts`, when given, gets the host of every followed URL, for `frontierEntries`: each URL is
 * parsed once, for its trap shape and its host together (parsing link URLs again and again was
 * 3 % of a breadth-first crawl's event loop on the crawl bench).
 */
export function linksToFollow(task: UrlTask, finalUrl: string, page: PageSegments, contexts: readonly LinkContext[], rules: FollowRules, hosts?: Map<string, string>): boolean[] {
  if (page.robots.nofollow || task.depth + 1 > rules.maxDepth) return contexts.map(() => false);
  const followable = new Set<string>();
  for (const segment of page.segments) if (segment.kind === 'link' && !segment.nofollow) followable.add(segment.url);
  // A URL linked several times is judged once.
  const verdicts = new Map<string, boolean>();
  return contexts.map(({ url }) => {
    let verdict = verdicts.get(url);
    if (verdict === undefined) {
      verdict = followable.has(url) && url !== finalUrl && url !== task.url;
      // parseUrl(url)?.hostname is hostOf(url), the host the caps and budgets are keyed on.
      const parsed = verdict && url.length <= rules.traps.maxUrlLength ? parseUrl(url) : undefined;
      verdict &&= trapReasonOf(url, parsed, rules.traps) === null && (!rules.inScope || rules.inScope(url));
      if (verdict) {
        const host = parsed!.hostname;
        verdict = host !== '' && rules.hostOpen(host);
        if (verdict) hosts?.set(url, host);
      }
      verdicts.set(url, verdict);
    }
    return verdict;
  });
}

/**
 * The frontier entries of the followed links: one per URL, with its best score less its host's
 * penalty. `scores[i]` is read only where `followed[i]`. `hosts`: what `linksToFollow` found.
 */
export function frontierEntries(
  task: UrlTask,
  finalUrl: string,
  contexts: readonly LinkContext[],
  scores: readonly number[],
  followed: readonly boolean[],
  rules: FollowRules,
  hosts?: ReadonlyMap<string, string>,
): FrontierEntry[] {
  const { strategyName } = rules;
  if (scores.length !== contexts.length) {
    throw new Error(`strategy ${strategyName} gave ${scores.length} scores for ${contexts.length} links`);
  }
  const depth = task.depth + 1;
  const best = new Map<string, FrontierEntry>();
  contexts.forEach((context, i) => {
    if (!followed[i]) return;
    const score = scores[i]!;
    if (!Number.isFinite(score)) throw new Error(`strategy ${strategyName} gave a non-finite score (${score}) for ${context.url}`);
    const { url } = context;
    const previous = best.get(url);
    if (!previous || score > previous.score) {
      const entry: FrontierEntry = { url, score, depth, parent: finalUrl, host: hosts?.get(url) ?? hostOf(url) };
      if (rules.keepContexts) {
        entry.context = { anchor: context.anchor, before: context.before, after: context.after };
        if (rules.onTopic !== undefined) entry.viaOnTopic = rules.onTopic;
      }
      best.set(url, entry);
    }
  });
  const children = [...best.values()];
  for (const child of children) child.score -= rules.hostPenalty(child.host);
  return children;
}
