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
  /** Stay on the seeds' hosts; default false. */
  sameSite?: boolean;
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

/** `GET /api/crawls/:id/pages`. */
export interface PagesReply {
  total: number;
  pages: PageLine[];
}
