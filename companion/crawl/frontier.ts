/**
 * The crawl loop's frontier: where URLs wait, are claimed, and are settled. Two implementations,
 * and the loop, strategies and hooks know neither:
 *
 *   - `sqlite-frontier.ts` (the default): the crawl store's frontier table, one process;
 *   - `frontier/redis/redis-frontier.ts` (`crawl --frontier redis://…`): one frontier in Redis
 *     shared by any number of crawl processes, with leases so a worker that dies loses nothing.
 *
 * Priority convention (stated once, `strategies/crawl-strategy.ts`): higher score is crawled
 * sooner, and a URL met again keeps its highest score (Han et al. 2010, seed 000).
 *
 * Why some results are `MaybePromise`: the SQLite frontier answers synchronously, and the loop
 * relies on that. A claim and the worker's `state.begin(host)` must happen with no await between
 * them, or a second worker's claim could pass the per-host concurrency check before the first
 * one counts its URL; the loop awaits only a real promise, so the SQLite path is unchanged.
 */
import type { ClaimDecision } from '../store/frontier-queries.ts';
import type { FrontierEntry, FrontierRow, PageExtras, PageRecord } from '../store/records.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import type { OnlineModels } from './online-learning.ts';
import type { SharedLearning } from './shared-learning.ts';

export type MaybePromise<T> = T | Promise<T>;

export interface Frontier {
  /** 'sqlite' (one process) or 'redis' (shared by several). */
  readonly kind: 'sqlite' | 'redis';
  /**
   * The best queued URL the frontier may hand out now, marked in flight (leased), or undefined.
   * `decide` is the process's own claim rule (per-host concurrency and cap); a shared frontier
   * applies the same rules to every process's URLs itself. Rows of `excludedHosts` are passed over.
   */
  claim(decide: (row: FrontierRow) => ClaimDecision, claimWindow: number, excludedHosts: readonly string[]): MaybePromise<FrontierRow | undefined>;
  /**
   * Those of `urls` whose rows no enqueue changes again (fetched, or dropped), answered at once:
   * the crawl does not score links to them. Absent (a shared frontier, whose answer would be a
   * round trip): every link is scored.
   */
  settled?(urls: readonly string[]): ReadonlySet<string>;
  /** Upserts entries (a link met again keeps its highest score). Returns how many rows changed. */
  enqueue(entries: readonly FrontierEntry[]): MaybePromise<number>;
  /** A claimed URL whose fetch was abandoned: queued again. */
  requeue(url: string): MaybePromise<void>;
  /** A claimed URL that will not be fetched, with the reason. */
  drop(url: string, reason: string): MaybePromise<void>;
  /**
   * Records a settled URL: its page, its URL done, its children enqueued. Undefined when another
   * worker recorded the URL first (a shared frontier's lease ran out while this one fetched):
   * a page is recorded once.
   */
  record(page: PageRecord, children: readonly FrontierEntry[], extras: PageExtras): MaybePromise<PageRecord | undefined>;
  /**
   * True when `record` answers only once the page is on disk (a shared frontier syncs the store
   * before Redis counts the page), so the crawl need not ask for the store's sync again.
   */
  readonly recordsDurably?: boolean;
  /** URLs queued over the whole crawl, as last known (progress; a shared frontier's last reply). */
  queued(): number;
  /** Queued URLs of each of `hosts` (hosts with none left out). */
  queuedByHost(hosts: readonly string[]): MaybePromise<Map<string, number>>;
  /**
   * Shared frontiers only: how long a worker with nothing to claim waits before asking again,
   * since other processes' pages (not this process's events) may make URLs claimable.
   */
  readonly pollMs?: number;
  /**
   * Shared frontiers only: whether the crawl still has work somewhere (URLs leased by any
   * process, or queued on hosts other than `setAside`) and its page budget is not spent. A
   * process with nothing to claim ends when this is false.
   */
  activeElsewhere?(setAside: readonly string[]): Promise<boolean>;
  /** Shared frontiers only: pages requested by every process, as last known (what progress shows). */
  recordedEverywhere?(): number;
  /** Shared frontiers only: true once the crawl's pages, counted over every process, reached maxPages. */
  budgetSpent?(): boolean;
  /**
   * Shared frontiers only: online learning shared by every process (`shared-learning.ts`), from
   * `models` as loaded, before anything was learned; `fingerprint` is the strategy's (its model's).
   */
  shareLearning?(models: OnlineModels, store: CrawlStore, fingerprint: string | null): Promise<SharedLearning>;
  /** Releases what the frontier holds open (timers, connections); the store is closed by its session. */
  close(): Promise<void>;
}
