/**
 * The crawl's one options object (STYLE.md 7): every field with its default, checked by
 * `validateCrawlOptions` at the edge so a bad value fails in one line naming the option.
 */
import { TOPIC_DEFAULTS } from '../../shared/model/topic-defaults.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import type { AddressKind, LookupFunction } from '../fetch/address-guard.ts';
import { validateFetchOptions, type FetchOptions } from '../fetch/fetch-options.ts';
import { DEFAULT_RETRY_POLICY, MAX_RETRIES, type RetryPolicy } from '../fetch/retry-policy.ts';
import { DEFAULT_PARSE_THREADS } from '../parse/thread-count.ts';
import type { CrawlHooks } from './crawl-hooks.ts';
import { CrawlOptionsError } from './crawl-errors.ts';
import { CRAWL_LIMITS } from './crawl-limits.ts';
import type { OnlineModels } from './online-learning.ts';
import { parseRedisFrontierUrl } from '../frontier/redis/redis-url.ts';
import { compileScope, DEFAULT_SCOPE, type ScopeRules } from './url-scope.ts';
import type { CrawlProgress } from './progress.ts';
import type { CrawlStrategy } from './strategies/crawl-strategy.ts';
import { DEFAULT_TRAP_CAPS, type TrapCaps } from './traps.ts';

/** A page classifier: relevance of a parsed page to the topic, in [0, 1]. */
export type PageJudge = (page: PageSegments) => number | Promise<number>;

export interface CrawlOptions {
  /** Start URLs. Required for a new crawl; on resume, added to the stored seeds (may be empty). */
  seeds: string[];
  /** The crawl directory: `crawl.sqlite` and `pages.jsonl`. Required. */
  outDir: string;
  /**
   * Pages to fetch, counted over the whole crawl including earlier runs of a resumed one.
   * Every URL requested counts, whatever its outcome (404, timeout, not HTML, a host that never
   * answered); URLs robots.txt forbids are recorded (outcome `robots-denied`) but not counted,
   * since nothing was fetched. When the count is reached, fetches still in flight are abandoned
   * and stay queued (`crawler.ts`). Required.
   */
  maxPages: number;
  /** Frontier order (`strategies/index.ts`). Required. */
  strategy: CrawlStrategy;
  /** Pages fetched at once. Default 4. */
  concurrency: number;
  /** Pages fetched at once from one host. Default 2. */
  perHostConcurrency: number;
  /**
   * Threads that parse pages off the event loop (`parse/parse-pool.ts`), shared by the crawls of
   * one process; 0 parses on the event loop. Default one per core past the first, at most 4.
   */
  parseThreads: number;
  /** Least delay in ms between two requests to one host; a larger robots.txt Crawl-delay wins. Default 500. */
  delayMs: number;
  /** Links more than this many hops from a seed are not followed (seeds are depth 0). Default 10. */
  maxDepth: number;
  /** Most pages fetched from one host; null for no cap. Default null. */
  maxPagesPerHost: number | null;
  /** URL-shape caps against endless URL spaces (`traps.ts`). */
  traps: TrapCaps;
  /** Continue the crawl stored in `outDir` instead of starting one. Default false. */
  resume: boolean;
  /** Context window W in characters for link contexts when the strategy does not choose (seed 000 §3.3). Default 80. */
  window: number;
  /** The fetch layer's options (`fetch-options.ts`); missing fields take its defaults. */
  fetch: FetchOptions;
  /**
   * Retries of transient failures (`fetch/retry-policy.ts`): `retries` default 2 (0 = none, at
   * most 10), `backoffMs` default 1 000, `maxRetryAfterMs` default 30 000, `robotsRetryMs` default
   * 300 000 (a host with an unreachable robots.txt waits that long, `retries` times). A page is recorded
   * once, with its last attempt's outcome; missing fields take the defaults.
   */
  retry: RetryPolicy;
  /** Hook sets, run in this order at each point (`crawl-hooks.ts`). Default none. */
  hooks: CrawlHooks[];
  /** Aborting stops claiming URLs; fetches in flight are abandoned and stay queued for a resume. */
  signal?: AbortSignal;
  /** Called after every settled page and once at the end. */
  onProgress?: (progress: CrawlProgress) => void;
  /** Page classifier; its relevance is recorded per page and drives the harvest estimate. Default none. */
  pageJudge?: PageJudge;
  /** Relevance at or above which a page counts as on topic in the harvest estimate. Default 0.5. */
  relevanceThreshold: number;
  /**
   * The topic's on-topic URL patterns as a test: when given, a page is judged by its URL
   * (relevance 1 or 0) before any page classifier (`page-judgement.ts`). Default none.
   */
  onTopicUrl?: (url: string) => boolean;
  /**
   * Which links may be queued and redirects followed (`url-scope.ts`): `scope` any, seed-hosts or
   * seed-domains (of every seed, a resumed crawl's stored ones included), `allow` and `deny` URL
   * patterns. A link or redirect out of scope is never followed, so its host is never looked up
   * or asked for robots.txt. Seeds are always crawled (their redirects obey the scope). A host an
   * `allow` pattern names may be on a loopback or private address even when no seed is
   * (`address-scope.ts`). Default `{ scope: 'any', allow: [], deny: [] }`.
   */
  scope: ScopeRules;
  /**
   * The host budget (`host-budget.ts`): pages a host may have without an on-topic page before
   * its URLs drop a step; null for none. Needs judged pages. Default null.
   */
  hostBudget: number | null;
  /**
   * Online learning (`online-learning.ts`): the models to update in place, every `every` pages,
   * re-scoring the best `rescoreTop` queued URLs; the strategy must define `rescore`. Default none.
   */
  online?: { models: OnlineModels; every: number; rescoreTop: number; topic: string };
  /**
   * The resolver for host names (Node's `dns.lookup` form). Every address it gives is checked
   * against the crawl's address rule at connect time (`address-scope.ts`). Default: the system
   * resolver; tests pass a stub that records the names asked.
   */
  lookup?: LookupFunction;
  /**
   * The kind of network an address is on, for the address rule. Default: IANA's special-purpose
   * ranges (`fetch/address-guard.ts`). Tests, whose every server is on loopback, declare one of
   * their addresses public here to stand for the web.
   */
  addressKind?: (address: string) => AddressKind;
  /**
   * WARC output (`warc/warc-writer.ts`): every page's request, response and metadata records in
   * `DIR/warc/`, a new file before one would pass `maxFileBytes`; null for none. Default null.
   */
  warc: { maxFileBytes: number } | null;
  /**
   * Keep each HTML page's title and main text in the store (`page-text-record.ts`, capped), for
   * `linkscent export` and the dashboard. Default false.
   */
  storeText: boolean;
  /**
   * Where the frontier lives: null for the crawl store's own (SQLite, one process; the default),
   * or a Redis URL, `redis://host:port/db[?crawl=NAME&lease=MS]`, that any number of crawl
   * processes share (`frontier/redis/redis-frontier.ts`). Each process keeps its own pages in
   * `outDir`. Checked here; WARC output needs the default (online learning and the host budget are
   * shared through Redis).
   */
  frontier: string | null;
  /** The crawl store's SQLite page cache in KiB (`OpenStoreOptions.cacheKiB`). Default the build's, 16,000 KiB. */
  storeCacheKiB?: number;
  /**
   * What the strategy's scores come from (the model file, its parts' settings), stored with the
   * crawl at every run's start (meta `scoring`) so `linkscent why` can score a URL again as the
   * crawl did; plain JSON. Default none.
   */
  scoring?: Record<string, unknown>;
  /** One-line reports (an invalid seed, a resume warning). Default: a line on stderr. */
  log: (line: string) => void;
  /**
   * Awaited before each URL is claimed, once its page is fetched, and between slices of online
   * learning's re-scoring: the service passes its turns (`service/page-turns.ts`), so that its
   * crawls' work interleaves with its requests. Default none: the command line's crawl runs flat out.
   */
  turn?: () => Promise<void>;
}

/** What a caller passes: the four required fields, any others optional. */
export type CrawlOptionsInput = Pick<CrawlOptions, 'outDir' | 'maxPages' | 'strategy'> &
  Partial<Omit<CrawlOptions, 'outDir' | 'maxPages' | 'strategy' | 'fetch' | 'traps' | 'retry'>> & {
    fetch?: Partial<FetchOptions>;
    traps?: Partial<TrapCaps>;
    retry?: Partial<RetryPolicy>;
  };

export const CRAWL_DEFAULTS = Object.freeze({
  seeds: [] as string[],
  concurrency: 4,
  perHostConcurrency: 2,
  parseThreads: DEFAULT_PARSE_THREADS,
  delayMs: 500,
  maxDepth: 10,
  maxPagesPerHost: null,
  resume: false,
  window: TOPIC_DEFAULTS.window,
  hooks: [] as CrawlHooks[],
  relevanceThreshold: TOPIC_DEFAULTS.threshold,
  hostBudget: null,
  scope: { scope: DEFAULT_SCOPE, allow: [], deny: [] } as ScopeRules,
  warc: null as { maxFileBytes: number } | null,
  storeText: false,
  frontier: null as string | null,
  log: (line: string) => void process.stderr.write(`${line}\n`),
});

const KNOWN = new Set<string>([
  ...Object.keys(CRAWL_DEFAULTS),
  'outDir',
  'maxPages',
  'strategy',
  'traps',
  'fetch',
  'retry',
  'signal',
  'onProgress',
  'pageJudge',
  'onTopicUrl',
  'online',
  'lookup',
  'addressKind',
  'scoring',
  'turn',
  'storeCacheKiB',
]);

/** Fills defaults and checks every field; throws `CrawlOptionsError` naming the first bad one. */
export function validateCrawlOptions(input: CrawlOptionsInput): CrawlOptions {
  for (const key of Object.keys(input)) {
    if (!KNOWN.has(key)) throw new CrawlOptionsError(`unknown crawl option '${key}' (known: ${[...KNOWN].join(', ')})`);
  }
  const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const options = { ...CRAWL_DEFAULTS, ...defined } as CrawlOptions & { traps?: Partial<TrapCaps>; fetch?: Partial<FetchOptions>; retry?: Partial<RetryPolicy> };

  if (typeof options.outDir !== 'string' || options.outDir.trim() === '') throw new CrawlOptionsError('outDir is required');
  if (!Array.isArray(options.seeds) || options.seeds.some((s) => typeof s !== 'string')) {
    throw new CrawlOptionsError('seeds must be a list of URLs');
  }
  // A worker may join a shared crawl without seeds (`RedisFrontier.join` checks it has some).
  if (!options.resume && options.seeds.length === 0 && options.frontier == null) throw new CrawlOptionsError('a new crawl needs at least one seed URL');
  wholeNumber('maxPages', options.maxPages, 1, CRAWL_LIMITS.maxPages);
  wholeNumber('concurrency', options.concurrency, 1, CRAWL_LIMITS.concurrency);
  wholeNumber('perHostConcurrency', options.perHostConcurrency, 1, CRAWL_LIMITS.perHostConcurrency);
  wholeNumber('parseThreads', options.parseThreads, 0, CRAWL_LIMITS.parseThreads);
  wholeNumber('delayMs', options.delayMs, 0, CRAWL_LIMITS.delayMs);
  wholeNumber('maxDepth', options.maxDepth, 0, CRAWL_LIMITS.maxDepth);
  if (options.maxPagesPerHost !== null) wholeNumber('maxPagesPerHost', options.maxPagesPerHost, 1);
  wholeNumber('window', options.window, 1);
  if (!(options.relevanceThreshold >= 0 && options.relevanceThreshold <= 1)) {
    throw new CrawlOptionsError(`relevanceThreshold must lie in [0, 1], got ${String(options.relevanceThreshold)}`);
  }
  const strategy = options.strategy as Partial<CrawlStrategy> | undefined;
  if (!strategy || typeof strategy.name !== 'string' || typeof strategy.scoreLinks !== 'function') {
    throw new CrawlOptionsError('strategy is required (createStrategy(name, deps))');
  }
  if (!Array.isArray(options.hooks)) throw new CrawlOptionsError('hooks must be a list of hook sets');
  if (options.hostBudget !== null) wholeNumber('hostBudget', options.hostBudget, 1);
  if (options.turn !== undefined && typeof options.turn !== 'function') throw new CrawlOptionsError('turn must be a function returning a promise');
  if (options.warc !== null) {
    if (typeof options.warc !== 'object') throw new CrawlOptionsError('warc must be { maxFileBytes } or null');
    wholeNumber('warc.maxFileBytes', options.warc.maxFileBytes, 1);
  }
  if (options.frontier !== null) checkSharedFrontier(options);
  if (typeof options.storeText !== 'boolean') throw new CrawlOptionsError(`storeText must be true or false, got ${String(options.storeText)}`);
  if (options.storeCacheKiB !== undefined) wholeNumber('storeCacheKiB', options.storeCacheKiB, 64);
  if (options.online !== undefined) {
    wholeNumber('online.every', options.online.every, 1);
    wholeNumber('online.rescoreTop', options.online.rescoreTop, 0);
    if (!options.strategy?.rescore) throw new CrawlOptionsError(`online learning needs a strategy that can score queued URLs again (nb), not ${String(options.strategy?.name)}`);
  }
  try {
    compileScope(options.scope, []);
  } catch (error) {
    throw new CrawlOptionsError(`scope: ${(error as Error).message}`, { cause: error });
  }
  for (const fn of ['onProgress', 'pageJudge', 'log', 'onTopicUrl', 'lookup', 'addressKind'] as const) {
    if (options[fn] !== undefined && typeof options[fn] !== 'function') throw new CrawlOptionsError(`${fn} must be a function`);
  }

  const traps: TrapCaps = { ...DEFAULT_TRAP_CAPS, ...(input.traps ?? {}) };
  for (const [key, value] of Object.entries(traps)) wholeNumber(`traps.${key}`, value, 1);
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(input.retry ?? {}) };
  for (const key of Object.keys(retry)) {
    if (!(key in DEFAULT_RETRY_POLICY)) throw new CrawlOptionsError(`unknown retry option 'retry.${key}' (known: ${Object.keys(DEFAULT_RETRY_POLICY).join(', ')})`);
  }
  wholeNumber('retry.retries', retry.retries, 0, MAX_RETRIES);
  wholeNumber('retry.backoffMs', retry.backoffMs, 0);
  wholeNumber('retry.maxRetryAfterMs', retry.maxRetryAfterMs, 0);
  wholeNumber('retry.robotsRetryMs', retry.robotsRetryMs, 0);
  let fetch: FetchOptions;
  try {
    fetch = validateFetchOptions(input.fetch ?? {});
  } catch (error) {
    throw new CrawlOptionsError(`fetch: ${(error as Error).message}`, { cause: error });
  }
  return { ...options, traps, fetch, retry };
}

function wholeNumber(name: string, value: unknown, min: number, max = Number.POSITIVE_INFINITY): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new CrawlOptionsError(`${name} must be a whole number ${range}, got ${String(value)}`);
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * A shared frontier's URL is well formed, and the crawl uses nothing that is kept per process
 * while the frontier is shared: WARC records are committed with the page's transaction. Online
 * learning (`shared-learning.ts`) and the host budget (`lua-scripts.ts`, COMMIT) are shared
 * through Redis.
 */
function checkSharedFrontier(options: CrawlOptions): void {
  try {
    parseRedisFrontierUrl(options.frontier!);
  } catch (error) {
    throw new CrawlOptionsError((error as Error).message, { cause: error });
  }
  if (options.warc !== null) throw new CrawlOptionsError('a shared frontier (--frontier redis://…) does not work with WARC output yet; drop it');
  // Its re-ranking (ipagerank's moved ranks) is one process's graph, written to its own store.
  if (options.strategy.refresh) {
    throw new CrawlOptionsError(`a shared frontier (--frontier redis://…) does not work with --strategy ${options.strategy.name} yet: its ranks are one process's graph`);
  }
}
