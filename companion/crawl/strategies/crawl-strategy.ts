/**
 * A crawl strategy decides the order of the frontier, and nothing else: the crawl loop, the
 * store and the hooks are the same whichever strategy runs.
 *
 * Priority convention, stated once for the whole crawler: **a higher score is crawled sooner**.
 * The frontier pops the highest score first, ties in discovery order; a URL met again keeps the
 * highest score any parent gave it (Han et al. 2010 §3.1). No strategy negates anything inside
 * the frontier: a strategy that wants "shallow first" (bfs) says so by scoring −depth.
 */
import type { LinkContext } from '../../../shared/contexts/types.ts';
import type { PageSegments } from '../../../shared/segments/types.ts';

/** The page whose links are being scored. */
export interface ParentPage {
  /** The URL the page was fetched under (after redirects). */
  url: string;
  page: PageSegments;
  depth: number;
  /** The parent's own frontier score. */
  score: number;
}

export interface CrawlStrategy {
  /** The registry name (`nb`, `bfs`, `best-first`); stored in the crawl so a resume can check it. */
  readonly name: string;
  /** One priority per link, in the links' order. Higher is crawled sooner. */
  scoreLinks(parent: ParentPage, links: readonly LinkContext[]): number[];
  /** The seeds' score: at least any score `scoreLinks` can give, so seeds go first. Default 1. */
  readonly seedScore?: number;
  /**
   * The link contexts the strategy wants to score, when it must choose them itself (nb uses its
   * model's context window). Absent: the crawler extracts them with the crawl's `window`.
   */
  contexts?(page: PageSegments): LinkContext[];
  /**
   * What the scores depend on besides the name (model checksum, topic, α). A resume with a
   * different fingerprint is allowed but warned about: old and new scores share one frontier.
   */
  readonly fingerprint?: string;
}

/** The seed score used when a strategy gives none. */
export const DEFAULT_SEED_SCORE = 1;
