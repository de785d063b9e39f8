/**
 * Plain records the crawl store reads and writes. `PageRecord` is also, field for field, one line
 * of `DIR/pages.jsonl` (the command-line contract: `{url, status, depth, parent, score,
 * fetchedAt, ...}`).
 */
import type { LabeledLink } from '../../shared/model/types.ts';
import type { FrontierState } from './schema.ts';

/** A URL to put on the frontier. Priority convention: higher `score` is crawled sooner. */
export interface FrontierEntry {
  url: string;
  score: number;
  depth: number;
  /** The page the link was found on; null for a seed. */
  parent: string | null;
  host: string;
  /** The link context that gave the score, kept when the strategy scores again (`rescore`). */
  context?: LinkText;
  /** Whether the page the link was found on was judged on topic; undefined when not judged. */
  viaOnTopic?: boolean;
}

/** A link's words, as stored with its frontier row. */
export interface LinkText {
  anchor: string;
  before: string;
  after: string;
}

/** A frontier row as stored. `seq` is discovery order. */
export interface FrontierRow extends FrontierEntry {
  seq: number;
  discoveredAt: number;
  state: FrontierState;
  reason: string | null;
  /** Its place in the frontier's order when claimed (1 = the best queued URL); absent before. */
  claimRank?: number;
}

/**
 * A queued row as a re-scoring first reads it (`CrawlStore.queuedHeads`): without its link text,
 * which is read only for the rows whose features the strategy did not keep (`queuedTexts`).
 */
export interface QueuedHead extends FrontierRow {
  /** The row holds a link text (seeds and redirect targets hold none, and are not re-scored). */
  hasText: boolean;
}

/**
 * One settled URL, in fetch order: the final outcome only, however many attempts it took
 * (`crawl/fetch-with-retries.ts`).
 */
export interface PageRecord {
  /** Fetch order, 1-based; assigned by the store. */
  seq?: number;
  url: string;
  finalUrl: string;
  status: number;
  depth: number;
  parent: string | null;
  score: number;
  fetchedAt: string;
  bytes: number;
  contentType: string;
  /** The fetch layer's outcome ('ok', 'http-error', 'robots-denied', …). */
  outcome: string;
  error?: string;
  /** Attempts made when more than one (transient failures retried); absent for one attempt. */
  attempts?: number;
  /** The page judge's relevance in [0, 1], when a judge was given and the page parsed. */
  relevance?: number;
  /** `<meta name="robots" content="noindex">`: recorded, but marked. */
  noindex?: boolean;
  /**
   * The URL's place in the frontier's order when it was claimed: 1 + the queued URLs ranked
   * above it then (passed over for a busy host, or set aside). Absent in crawls made before it.
   */
  rank?: number;
  /**
   * The link classifier's log-odds, log P(+|x) − log P(−|x), for the link that led to the page,
   * when it was claimed (nb): how strongly the model favoured it, where the score itself can be 1
   * for every link the topic's patterns match. Absent for seeds and other strategies.
   */
  logOdds?: number;
}

/** A page's extracted text as stored (`crawl --store-text`), cut at its caps. */
export interface StoredText {
  title: string;
  text: string;
  /** True when the title or the text was cut at its cap. */
  truncated: boolean;
}

/** Where a page's WARC records lie (`crawl --warc`). */
export interface WarcLocation {
  /** File name under `DIR/warc/`. */
  file: string;
  /** Byte range of the page's records (whole gzip members). */
  offset: number;
  length: number;
  /** The response record's WARC-Record-ID; absent when the page has a metadata record only. */
  responseId?: string;
}

/** What the page's transaction writes besides its row (each when the crawl keeps it). */
export interface PageExtras {
  text?: StoredText;
  warc?: WarcLocation;
}

/**
 * Outcomes of URLs recorded without any request made: robots.txt forbids them, or the crawl's
 * address rule refused their host's address (`crawl/address-scope.ts`). Nothing was fetched, so
 * they do not count as fetched pages: not toward maxPages, a host's cap or budget, nor online
 * learning.
 */
export const NOT_REQUESTED_OUTCOMES: readonly string[] = ['robots-denied', 'address-denied'];

/** Whether a recorded URL was requested (see `NOT_REQUESTED_OUTCOMES`). */
export function wasRequested(outcome: string): boolean {
  return !NOT_REQUESTED_OUTCOMES.includes(outcome);
}

/** Counts for progress and summaries. */
export interface StoreCounts {
  queued: number;
  inFlight: number;
  done: number;
  dropped: number;
  /** Rows in `pages`. */
  pages: number;
}

/** Page totals over a whole crawl (see `CrawlStore.pageStats`). */
export interface PageStats {
  /** Pages requested: every outcome but the `NOT_REQUESTED_OUTCOMES`. */
  fetched: number;
  robotsDenied: number;
  /** Requested pages whose outcome was not ok. */
  errors: number;
  /** Pages with a relevance, and those at or above the threshold. */
  judged: number;
  relevant: number;
}

/** A page recorded by the crawl, with the context of the link that led to it (online learning). */
export interface SettledPage {
  seq: number;
  url: string;
  finalUrl: string;
  parent: string | null;
  relevance: number | null;
  context?: LinkText;
}

/** A labeled link learned during a crawl: its label, and its level when known (level classifier). */
export interface LearnedLink extends LabeledLink {
  /** The row's id, once stored. */
  id?: number;
  level?: number;
}
