/**
 * The companion service's wire types, as `docs/service-api.md` (the contract) states them.
 *
 * Written out here rather than imported from `companion/service/`: the extension must not pull
 * Node code into its bundle, and the contract document, not the server's source, is what both
 * sides are written against. `client.ts` checks every answer against these shapes before a
 * handler sees it (server data is checked at the edge, never trusted).
 */

/** The service's default port (`linkscent serve` without `--port`). */
export const DEFAULT_COMPANION_PORT = 7431;

/**
 * Where the service may listen, as host-permission patterns (any port: the user picks it). The
 * manifest asks for these, and the options page asks the browser for them again when pairing
 * (Firefox lets the user withhold host permissions).
 */
export const COMPANION_ORIGINS = ['http://127.0.0.1/*', 'http://localhost/*'];

export type CrawlState = 'running' | 'paused' | 'done' | 'stopped' | 'failed';

/** States after which nothing will change any more: the popup stops polling. */
export const FINAL_STATES: ReadonlySet<CrawlState> = new Set(['done', 'stopped', 'failed']);

/** Body of `POST /api/crawls`. Fields are the contract's; absent ones take its defaults. */
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

export interface CrawlProgressInfo {
  fetched: number;
  maxPages: number;
  queued: number;
  errors: number;
  judged: number;
  relevant: number;
  /** relevant / judged; null with no judge. */
  harvest: number | null;
  pagesPerSecond: number;
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

/** One line of a crawl's `pages.jsonl`: the client passes it on as it came. */
export type PageRecord = Record<string, unknown>;

/** `GET /api/crawls/:id/pages`. */
export interface PagesReply {
  total: number;
  pages: PageRecord[];
}
