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
import type { FeatureVector } from '../../../shared/features/types.ts';
import type { ScoreParts } from '../../../shared/service-api/types.ts';
import type { PageSegments } from '../../../shared/segments/types.ts';
import type { FrontierRow, LinkText } from '../../store/records.ts';

/** The page whose links are being scored. */
export interface ParentPage {
  /** The URL the page was fetched under (after redirects). */
  url: string;
  page: PageSegments;
  depth: number;
  /** The parent's own frontier score. */
  score: number;
  /** Whether the page was judged on topic (`crawl/page-judgement.ts`); undefined when not judged. */
  onTopic?: boolean;
}

export interface CrawlStrategy {
  /** The registry name (`nb`, `bfs`, `best-first`); stored in the crawl so a resume can check it. */
  readonly name: string;
  /** One priority per link, in the links' order. Higher is crawled sooner. */
  scoreLinks(parent: ParentPage, links: readonly LinkContext[]): number[];
  /**
   * A link's score depends on the link and its page alone, not on which other links of the page
   * are scored with it: the crawl then asks only about the links it will queue (`process-url.ts`).
   * Absent: every link of the page is scored (a link graph's strategy counts them all).
   */
  readonly scoresLinksAlone?: boolean;
  /** The seeds' score: at least any score `scoreLinks` can give, so seeds go first. Default 1. */
  readonly seedScore?: number;
  /**
   * The context window the strategy's links are extracted with, when it must choose it itself
   * (nb: its model's, the window it was trained on). Absent: the crawl's `window`.
   */
  readonly contextWindow?: number;
  /**
   * What the scores depend on besides the name (model checksum, topic, α). A resume with a
   * different fingerprint is allowed but warned about: old and new scores share one frontier.
   */
  readonly fingerprint?: string;
  /**
   * How far down the frontier's order a free worker may reach, past URLs whose hosts have no
   * free slot, for a URL to fetch; when none is found that far down it waits for a slot. A
   * focused strategy keeps this short, since a slot filled with a URL ranked far below is a page
   * off the topic; breadth-first keeps it long, every URL being as good as the next. Default
   * `DEFAULT_CLAIM_WINDOW`.
   */
  readonly claimWindow?: number;
  /**
   * Scores a queued URL again from what its row kept (the link context, the parent's judgement),
   * after the strategy's model learned (`crawl/online-learning.ts`). Strategies that define it get
   * each link's context stored with its frontier row.
   */
  rescore?(row: FrontierRow & { context: LinkText }): number;
  /**
   * `rescore` of a queued row from what the strategy kept of it at its last `rescore`, without its
   * text; undefined when it kept nothing. The caller vouches that the row's text is the one that
   * `rescore` saw: it was told of every change to the row since (`forgetKept`).
   */
  rescoreKept?(row: { url: string; viaOnTopic?: boolean }): number | undefined;
  /** The row of `url` changed (its text may have): what `rescore` kept of it must not be used. */
  forgetKept?(url: string): void;
  /**
   * New scores for queued URLs that the strategy re-ranked by itself (ipagerank: ranks moved as
   * the crawl's graph grew), asked after every recorded page; undefined when none are due. The
   * crawl loop writes them in one transaction, the host budget's step kept (`crawler.ts`).
   */
  refresh?(): { url: string; score: number }[] | undefined;
  /** The link classifier's log-odds of a link context (nb): recorded with the page it led to. */
  linkLogOdds?(context: LinkContext): number;
  /**
   * A link context's features as its scorer's `featuresOf` gives them (the same entries in the
   * same order), from what the strategy kept of the link; undefined when it kept nothing of it.
   * Online learning learns from the links the crawl claimed (`linkLogOdds`) a moment before.
   */
  linkFeatures?(context: LinkContext): FeatureVector | undefined;
  /** P(+) of a link context: the last resort of the page judge (`crawl/page-judgement.ts`). */
  linkRelevance?(context: LinkText & { url: string; pageUrl: string }): number;
  /**
   * The parts of the score `rescore` would give a link (before any host budget step), with the
   * `top` features that weighed most: what `linkscent why` prints. Strategies with a model give it.
   */
  explain?(context: LinkContext, viaOnTopic: boolean | undefined, top: number): ScoreParts;
}

/** The seed score used when a strategy gives none. */
export const DEFAULT_SEED_SCORE = 1;

/**
 * The claim window of strategies that give none (bfs). It also bounds a claim's cost: a window
 * of 4 096 let every worker walk thousands of rows of busy hosts after every page, with the
 * frontier led by one site and its slots taken; that walk was 70 % of the crawl's CPU
 * (bench/crawl-bench.ts, profiled). 256 rows still reach the next hosts of a mixed frontier.
 */
export const DEFAULT_CLAIM_WINDOW = 256;

/**
 * The claim window of the focused strategies (nb, best-first): a free slot goes to another
 * host's URL only when it is among the next few best. Measured on the crawl bench's local web
 * (nb, concurrency 8, per-host cap 2, no delay; on-topic pages among the first 500 lines of
 * pages.jsonl): a window of 256 gave 63, 16 gave 141, 4 gave 160, and concurrency 2 gives 163;
 * the bench's own harvest@100 at concurrency 8 went from 18 % to 51 %. The cost is concurrency
 * past the per-host cap when the best URLs share a host: raise --per-host-concurrency for it.
 */
export const FOCUSED_CLAIM_WINDOW = 4;
