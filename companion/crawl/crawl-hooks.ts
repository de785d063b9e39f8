/**
 * Ordered hooks at named points (STYLE.md 8). One page passes the points in this order, written
 * here once and nowhere else:
 *
 *   1. beforeFetch(task)            may skip the URL (return false, or throw SkipUrlError)
 *   2. afterFetch(fetched, task)    the fetch layer's result, whatever its outcome (the last
 *                                   attempt's, once, when transient failures were retried)
 *   3. afterParse(parsed)           an HTML page as PageSegments and its LinkContexts
 *   4. linksScored(scored)          the same links with the strategy's scores, and which are followed
 *   5. pageStored(record)           after the page's transaction committed and its line was written
 *
 * At each point the hook sets run in the order they were given (`hooks: [a, b]`: a first), each
 * awaited before the next. Points 3 and 4 run only for pages that parsed as HTML. `collect`
 * writes its labeled links from afterParse or linksScored; the page is judged
 * (`page-judgement.ts`) between points 3 and 4, so the strategy scores its links knowing whether
 * the page is on topic, and pageStored sees the relevance.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import type { FetchedPage } from '../fetch/types.ts';
import type { LinkText, PageRecord } from '../store/records.ts';

/** A URL taken off the frontier. */
export interface UrlTask {
  url: string;
  depth: number;
  /** Its frontier score (higher is crawled sooner). */
  score: number;
  parent: string | null;
  /** The context of the link that led here, when the strategy keeps contexts. */
  context?: LinkText;
  /** Its place in the frontier's order when claimed (1 = the best queued URL). */
  rank?: number;
  /** The strategy's log-odds for the link that led here, when claimed (nb). */
  logOdds?: number;
}

export interface ParsedPage {
  task: UrlTask;
  fetched: FetchedPage;
  page: PageSegments;
  /** Every link context of the page, in page order (nofollow links included). */
  contexts: LinkContext[];
}

export interface ScoredPage extends ParsedPage {
  /** The strategy's score of `contexts[i]`. */
  scores: number[];
  /**
   * Whether `contexts[i]` goes to the frontier: false for rel=nofollow, a page with meta
   * nofollow, a link past the depth limit, a trap-shaped URL, a non-HTTP URL, a capped host.
   */
  followed: boolean[];
}

export interface CrawlHooks {
  /** Return false to skip the URL: it is dropped from the frontier, never fetched, not counted. */
  beforeFetch?(task: UrlTask): boolean | void | Promise<boolean | void>;
  afterFetch?(fetched: FetchedPage, task: UrlTask): void | Promise<void>;
  afterParse?(parsed: ParsedPage): void | Promise<void>;
  linksScored?(scored: ScoredPage): void | Promise<void>;
  pageStored?(record: PageRecord): void | Promise<void>;
}

/** The points, in a page's order (see the header). */
export const HOOK_POINTS = ['beforeFetch', 'afterFetch', 'afterParse', 'linksScored', 'pageStored'] as const;
export type HookPoint = (typeof HOOK_POINTS)[number];

type HookArgs<P extends HookPoint> = Parameters<NonNullable<CrawlHooks[P]>>;

/** Runs one point's hooks in order. For beforeFetch, false when any hook asked to skip. */
export async function runHooks<P extends HookPoint>(
  hooks: readonly CrawlHooks[],
  point: P,
  ...args: HookArgs<P>
): Promise<boolean> {
  for (const set of hooks) {
    const hook = set[point] as ((...a: HookArgs<P>) => unknown) | undefined;
    if (!hook) continue;
    const result = await hook.apply(set, args);
    if (point === 'beforeFetch' && result === false) return false;
  }
  return true;
}
