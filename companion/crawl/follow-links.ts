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
 * The depth limit and the page cap are applied here, on the event loop; the other rules never
 * change during a crawl and are decided where the page is parsed (`link-rules.ts`).
 *
 * Two steps, so that a crawl scores only the links it follows (`process-url.ts`): on the local
 * web of the crawl bench a quarter of a page's links leave the crawl's scope and a third lead to
 * pages already fetched, and scoring them was most of nb's scoring work for nothing.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { FrontierEntry } from '../store/records.ts';
import type { UrlTask } from './crawl-hooks.ts';
import type { CrawlOptions } from './crawl-options.ts';

/** What following needs besides the page: the crawl's changing rules and the strategy's wishes. */
export interface FollowRules extends Pick<CrawlOptions, 'maxDepth'> {
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
 * `hosts[i]`: the link's host when the fixed rules let it be followed, else null
 * (`followableHosts` in `link-rules.ts`, decided where the page was parsed); what is left here
 * changes as the crawl runs: the depth limit and each host's page cap.
 */
export function linksToFollow(task: UrlTask, hosts: readonly (string | null)[], rules: FollowRules): boolean[] {
  if (task.depth + 1 > rules.maxDepth) return hosts.map(() => false);
  // A host is asked once per page.
  const open = new Map<string, boolean>();
  return hosts.map((host) => {
    if (host === null) return false;
    let verdict = open.get(host);
    if (verdict === undefined) open.set(host, (verdict = rules.hostOpen(host)));
    return verdict;
  });
}

/**
 * The frontier entries of the followed links: one per URL, with its best score less its host's
 * penalty. `scores[i]` is read only where `followed[i]`. `hosts`: what `linksToFollow` was given.
 */
export function frontierEntries(
  task: UrlTask,
  finalUrl: string,
  contexts: readonly LinkContext[],
  scores: readonly number[],
  followed: readonly boolean[],
  rules: FollowRules,
  hosts: readonly (string | null)[],
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
      const entry: FrontierEntry = { url, score, depth, parent: finalUrl, host: hosts[i]! };
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
