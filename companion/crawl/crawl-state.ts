/**
 * The crawl's in-memory counters: what is in flight per host, what each host has had, the
 * running totals for progress and the harvest estimate. Everything here can be rebuilt from the
 * store, and is on resume (`CrawlStore.pageStats`, `pageCountsByHost`); nothing here is the
 * source of truth.
 */
import type { CrawlStore } from '../store/crawl-store.ts';
import { wasRequested, type PageRecord } from '../store/records.ts';
import type { Frontier } from './frontier.ts';
import type { ClaimDecision } from '../store/frontier-queries.ts';
import type { FrontierRow } from '../store/records.ts';
import type { CrawlOptions } from './crawl-options.ts';
import type { CrawlProgress } from './progress.ts';

/** How often the frontier's size is re-counted for progress (a count walks the table; a shared frontier's is its last reply). */
const COUNTS_REFRESH_MS = 1000;

export class CrawlState {
  fetched: number;
  fetchedThisRun = 0;
  robotsDenied: number;
  errors: number;
  judged: number;
  relevant: number;
  inFlight = 0;
  readonly startedAt = Date.now();
  readonly #perHostFetched: Map<string, number>;
  readonly #perHostInFlight = new Map<string, number>();
  /**
   * Hosts whose robots.txt is unreachable: until when, why, how many verdicts so far, and whether
   * the crawl has set the host aside (a verdict from the seed check is counted but sets nothing
   * aside until the crawl meets it: see `countSeedVerdict`).
   */
  readonly #deferred = new Map<string, { until: number; reason: string; verdicts: number; aside: boolean }>();
  readonly #waiters: (() => void)[] = [];
  #queued: number;
  #countsAt = 0;

  /** Page counters from `store` (this process's pages); the queue's size from `frontier`. */
  constructor(
    store: CrawlStore,
    private readonly options: CrawlOptions,
    private readonly frontier: Frontier,
  ) {
    const stats = store.pageStats(options.relevanceThreshold);
    this.fetched = stats.fetched;
    this.robotsDenied = stats.robotsDenied;
    this.errors = stats.errors;
    this.judged = stats.judged;
    this.relevant = stats.relevant;
    this.#perHostFetched = store.pageCountsByHost();
    this.#queued = frontier.queued();
    this.#countsAt = Date.now();
  }

  /**
   * Whether more URLs may be claimed: fewer than maxPages recorded. The ones in flight do not
   * count, so an idle worker fetches ahead instead of waiting on a stalled page; the run stops
   * when maxPages are recorded and abandons the rest (`crawler.ts`).
   */
  get budgetLeft(): boolean {
    return this.fetched < this.options.maxPages;
  }

  /** The frontier claim rule: per-host concurrency (skip for now) and per-host cap (drop). */
  decide = (row: FrontierRow): ClaimDecision => {
    const busy = this.#perHostInFlight.get(row.host) ?? 0;
    const cap = this.options.maxPagesPerHost;
    if (cap !== null) {
      const had = this.#perHostFetched.get(row.host) ?? 0;
      if (had >= cap) return { drop: `host reached maxPagesPerHost (${cap})` };
      if (had + busy >= cap) return 'skip';
    }
    return busy >= this.options.perHostConcurrency ? 'skip' : 'take';
  };

  /**
   * Sets a host aside until `until`, its robots.txt being unreachable; false once the host has
   * had `retries` such verdicts already, when its URLs are to be recorded robots-denied instead.
   * URLs of one host meeting the same verdict count once.
   */
  deferHost(host: string, until: number, retries: number, reason: string): boolean {
    const known = this.#deferred.get(host);
    if (known?.until === until) {
      if (known.verdicts > retries) return false;
      known.aside = true;
      return true;
    }
    const verdicts = (known?.verdicts ?? 0) + 1;
    if (verdicts > retries) return false;
    this.#deferred.set(host, { until, reason, verdicts, aside: true });
    return true;
  }

  /**
   * Counts a verdict the seed check met before the run: the host's first question was asked, even
   * when that answer expires before the crawl reaches the host (a busy start) and is asked anew.
   * Nothing is set aside: the seed check is not the crawl meeting the host.
   */
  countSeedVerdict(host: string, until: number, reason: string): void {
    if (!this.#deferred.has(host)) this.#deferred.set(host, { until, reason, verdicts: 1, aside: false });
  }

  /**
   * Hosts set aside at `now`: the claim passes over their URLs (`CrawlStore.claimNext`). A worker
   * that finds nothing to claim waits until `nextDeferralEnd` of the same `now`: read with a later
   * clock, a deferral that ended in between was neither claimable nor waited for, and the worker
   * slept until another one woke it (a hang, when that one waited on this host).
   */
  deferredHosts(now: number): string[] {
    return [...this.#deferred].flatMap(([host, { until, aside }]) => (aside && until > now ? [host] : []));
  }

  /** When the earliest host set aside at `now` may be asked again, or undefined when none waits. */
  nextDeferralEnd(now: number): number | undefined {
    let next: number | undefined;
    for (const { until, aside } of this.#deferred.values()) if (aside && until > now && (next === undefined || until < next)) next = until;
    return next;
  }

  /** Why a host was last set aside. */
  deferralReason(host: string): string | undefined {
    return this.#deferred.get(host)?.reason;
  }

  /** Whether a host still takes pages (children of capped hosts are not enqueued). */
  hostOpen(host: string): boolean {
    const cap = this.options.maxPagesPerHost;
    return cap === null || (this.#perHostFetched.get(host) ?? 0) < cap;
  }

  begin(host: string): void {
    this.inFlight++;
    this.#perHostInFlight.set(host, (this.#perHostInFlight.get(host) ?? 0) + 1);
  }

  /**
   * A task is over. Wakes no one: the worker that ran it claims next itself, and a successful
   * claim wakes one waiter (`wakeOne`), so claims cascade while they succeed. Waking every
   * waiter here made each of them walk the frontier after every page, and all but one walk
   * found nothing (with one busy host leading the frontier, thousands of skipped rows each).
   */
  end(host: string): void {
    this.inFlight--;
    const n = (this.#perHostInFlight.get(host) ?? 1) - 1;
    if (n > 0) this.#perHostInFlight.set(host, n);
    else this.#perHostInFlight.delete(host);
  }

  /** Counts a page just recorded. */
  settled(record: PageRecord, host: string): void {
    if (!wasRequested(record.outcome)) {
      if (record.outcome === 'robots-denied') this.robotsDenied++;
      return;
    }
    this.fetched++;
    this.fetchedThisRun++;
    this.#perHostFetched.set(host, (this.#perHostFetched.get(host) ?? 0) + 1);
    if (record.outcome !== 'ok') this.errors++;
    if (record.relevance !== undefined) {
      this.judged++;
      if (record.relevance >= this.options.relevanceThreshold) this.relevant++;
    }
  }

  /**
   * Resolves when `wakeOne` picks this waiter or `wake` is called (abort, failure, the end), or at
   * `until` (ms since the epoch): when a host set aside may be asked again, an idle worker must
   * not wait for a page in flight to end before it claims that host's URLs.
   */
  changed(until?: number): Promise<void> {
    return new Promise((resolve) => {
      if (until === undefined) return void this.#waiters.push(resolve);
      const waiter = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.#waiters.indexOf(waiter);
        if (at >= 0) this.#waiters.splice(at, 1);
        resolve();
      }, Math.max(0, until - Date.now()));
      this.#waiters.push(waiter);
    });
  }

  /** Wakes the longest waiting worker, if any: there may be one more URL to claim. */
  wakeOne(): void {
    this.#waiters.shift()?.();
  }

  /** Wakes every waiting worker. */
  wake(): void {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  progress(done: boolean): CrawlProgress {
    const now = Date.now();
    if (done || now - this.#countsAt >= COUNTS_REFRESH_MS) {
      this.#queued = this.frontier.queued();
      this.#countsAt = now;
    }
    const elapsedMs = now - this.startedAt;
    return {
      // A shared crawl's pages are every process's (a dashboard shows the whole crawl).
      fetched: Math.max(this.fetched, this.frontier.recordedEverywhere?.() ?? 0),
      fetchedThisRun: this.fetchedThisRun,
      maxPages: this.options.maxPages,
      queued: this.#queued,
      inFlight: this.inFlight,
      errors: this.errors,
      judged: this.judged,
      relevant: this.relevant,
      harvest: this.judged > 0 ? this.relevant / this.judged : null,
      elapsedMs,
      pagesPerSecond: elapsedMs > 0 ? (this.fetchedThisRun * 1000) / elapsedMs : 0,
      done,
    };
  }
}
