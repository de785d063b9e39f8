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

/** `GET /api/crawls/:id/pages`. */
export interface PagesReply {
  total: number;
  pages: PageLine[];
}
