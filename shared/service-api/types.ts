/**
 * The companion service's wire types: what `docs/service-api.md` (the contract) states, written
 * once for both sides. The companion's server answers in these shapes; the extension's client
 * checks every answer against them at the edge (`extension/companion-client/check-replies.ts`) before a
 * handler sees it. Types and constants only: nothing here runs a request.
 */

/** The service's default port (`linkscent serve` without `--port`). */
export const DEFAULT_SERVICE_PORT = 7431;

export type CrawlState = 'running' | 'paused' | 'done' | 'stopped' | 'failed';

/** States a crawl never leaves: the service refuses to pause them, clients stop polling. */
export const FINAL_STATES: ReadonlySet<CrawlState> = new Set(['done', 'stopped', 'failed']);

/** Body of `POST /api/crawls`. Absent fields take the contract's defaults. */
export interface CrawlRequest {
  /** Absolute http(s) URLs, at least one. */
  seeds: string[];
  /** From `POST /api/models`; with it the strategy is nb. */
  modelId?: string;
  /** Which topic of the model file (default: its only or first topic). */
  topicId?: string;
  strategy?: 'nb' | 'bfs';
  /** Default 200, at most 100000. */
  maxPages?: number;
  /** Default 5. */
  maxDepth?: number;
  /** Default 4. */
  concurrency?: number;
  /** Per host, default 500. */
  delayMs?: number;
  /**
   * Which URLs the crawl may fetch: 'any', 'seed-hosts' (the seeds' hosts only) or 'seed-domains'
   * (the seeds' registrable domains, subdomains included). Default 'any'.
   */
  scope?: CrawlScope;
  /** The older form of `scope`, still accepted: true = 'seed-hosts', false = 'any'. */
  sameSite?: boolean;
  /**
   * Write WARC 1.1 files (request, response and metadata records of every page) into the crawl's
   * directory, `warc/`. Default false.
   */
  warc?: boolean;
  /** Keep each page's title and main text (`GET /api/crawls/:id/text`, `linkscent export`). Default false. */
  storeText?: boolean;
}

export type CrawlScope = 'any' | 'seed-hosts' | 'seed-domains';
export const CRAWL_SCOPES: readonly CrawlScope[] = ['any', 'seed-hosts', 'seed-domains'];

/** The scope a request asks for: `scope`, else `sameSite` as the older clients meant it. */
export function requestScope(request: Pick<CrawlRequest, 'scope' | 'sameSite'>): CrawlScope {
  return request.scope ?? (request.sameSite === true ? 'seed-hosts' : 'any');
}

/** Why a crawl in state 'done' ended (services that know say so; older ones leave it out). */
export interface CrawlEnd {
  /** 'max-pages': it fetched its page limit; 'frontier-empty': nothing was left to fetch. */
  by: 'max-pages' | 'frontier-empty';
  /** Links not queued because they lay beyond `maxDepth`. */
  beyondDepth?: number;
  /** Links not queued because they lay outside the scope. */
  outOfScope?: number;
}

/** A crawl's progress as clients show it (the crawler's own report minus its run-local fields). */
export interface CrawlProgressInfo {
  fetched: number;
  maxPages: number;
  queued: number;
  errors: number;
  judged: number;
  relevant: number;
  /** relevant / judged; null with no page judge. */
  harvest: number | null;
  pagesPerSecond: number;
  /** Over all runs of the crawl (a resumed crawl keeps counting). */
  elapsedMs: number;
}

export interface CrawlInfo {
  id: string;
  state: CrawlState;
  createdAt: number;
  seeds: string[];
  strategy: 'nb' | 'bfs';
  topic: { id: string; name: string } | null;
  maxPages: number;
  progress: CrawlProgressInfo;
  /** With state 'failed': one sentence. */
  error?: string;
  /** With state 'done', from services that report it: why it ended. */
  ended?: CrawlEnd;
  /** '/dashboard#crawl=<id>'; the client adds the token. */
  dashboardPath: string;
}

/** `GET /api/status`. */
export interface ServiceStatus {
  version: string;
  port: number;
  crawls: CrawlInfo[];
}

/** `POST /api/models` → 201. */
export interface ModelUpload {
  modelId: string;
  topics: { id: string; name: string; examples: number }[];
}

/** One line of a crawl's `pages.jsonl`, passed on as it came. */
export type PageLine = Record<string, unknown>;

/** `GET /api/crawls/:id/text?url=U`: the text a crawl with `storeText` kept of a page. */
export interface PageTextReply {
  url: string;
  title: string;
  text: string;
  /** True when the title or the text was cut at its cap. */
  truncated: boolean;
}

/**
 * A link's score taken apart by the strategy that gave it (nb, docs/focused-crawl.md §2, §4):
 * `value` = immediate + (1 − immediate) · future, `priority` = value, or value − 1 when sent back.
 */
export interface ScoreParts {
  /** P(+ | link): the link classifier's, or 1 when the topic's URL patterns match the link. */
  immediate: number;
  /** True when `immediate` is 1 by the topic's URL patterns, not by the classifier. */
  byPattern: boolean;
  /** The link classifier's log P(+|x) − log P(−|x) (also when the patterns decided). */
  logOdds: number;
  /** E[γ^d | d ≥ 1] from the level classifier; null without one. */
  future: number | null;
  /** γ of the future value; null without a level classifier. */
  gamma: number | null;
  /** P(level d | link), d = 0 … L−1, the last level "that far or more"; null without a level classifier. */
  levels: number[] | null;
  value: number;
  /** True when the link, on a page judged off topic, was worth less than r2: sent to the back. */
  sentBack: boolean;
  priority: number;
  /** The link classifier's features that weighed most: log P(f|+)/P(f|−) as it entered the score. */
  top: { feature: string; weight: number }[];
}

/** `GET /api/crawls/:id/why?url=U`, and `linkscent why --json`: why a URL came when it did. */
export interface WhyReply {
  url: string;
  /** Its frontier state: queued, in-flight, done (fetched) or dropped (never to be fetched). */
  state: 'queued' | 'in-flight' | 'done' | 'dropped';
  /** Why a dropped URL was dropped. */
  reason?: string;
  strategy: string;
  /** The score it was claimed with (or holds now, while queued); higher is fetched sooner. */
  score: number;
  /** Its place in the frontier's order when claimed (1 = the best queued URL); absent before. */
  rank?: number;
  depth: number;
  /** The link that gave it its best score; absent for a seed. */
  link?: { parent: string; anchor: string; before: string; after: string };
  seed: boolean;
  /** A page reached by redirect from another URL of the crawl: that URL (whose link is shown). */
  redirectedFrom?: string;
  /** The fetched page, when there is one. */
  page?: { outcome: string; status: number; fetchedAt: string; relevance?: number };
  /** How far its host's budget steps lower its host's URLs now (0 without a host budget). */
  hostPenalty: number;
  /** The score taken apart, re-scored now from the stored link with the crawl's model. */
  parts?: ScoreParts;
  /** Why `parts` is missing, when it is. */
  partsNote?: string;
}

/** `GET /api/crawls/:id/pages`. */
export interface PagesReply {
  total: number;
  pages: PageLine[];
}
