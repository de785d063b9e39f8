/**
 * The tail of a recorded page's life that waits on the disk: its fsync (the store's group commit,
 * `store/wal-sync.ts`), then its pages.jsonl line, the progress line and its pageStored hooks.
 *
 * That tail runs beside the worker, not in its slot. A page counts toward maxPages once its
 * writes are in the store, in the open batch of writes (`store/write-batch.ts`); what the report
 * waits for is that batch's commit (≤ 10 ms; at once when a worker would wait on `limit` reports),
 * after which the page survives `kill -9`, and the fdatasync that makes it survive a power cut,
 * 2–5 ms on an ordinary disk (one that runs plus the next, for a page committed while one runs). Waited for in the slot, that was
 * a fetch slot doing nothing: an nb crawl's event loop sat idle 11 % of its steady state with its
 * store on disk against 5 % on tmpfs, where fdatasync returns at once.
 *
 * What stays as it was:
 *   - a page's line is written only after its fsync, and lines keep commit order (every report
 *     awaits its sync's promise, and a sync's waiters resume in the order they asked);
 *   - a failed sync, or a pageStored hook that asks the crawl to stop (`crawl-errors.ts`), stops
 *     the crawl: `onFailure` hears it;
 *   - the run ends only after every report has (`drain`), so the summary and pages.jsonl agree.
 * What changes: a pageStored hook may now run while the worker that recorded its page fetches the
 * next one. A worker that starts a report while `limit` or more wait waits itself until one ends,
 * so slow hooks or a slow disk hold the crawl back instead of piling up pages in memory: fewer
 * than `limit` + concurrency reports wait at any time.
 */
export class PageReports {
  readonly #pending = new Set<Promise<void>>();
  /** Workers waiting for a report to end, oldest first: each report that ends lets one go. */
  readonly #waiting: (() => void)[] = [];
  #failure: unknown;
  #failed = false;

  /**
   * @param limit reports waiting at once before a worker waits (≥ 1): a few per worker (`REPORTS_PER_WORKER`, `crawler.ts`).
   * @param onFailure hears the first report that failed: the crawl must stop with it.
   * @param beforeWait runs when a worker is about to wait: what reports wait for may be hurried
   *   (the crawl commits its open batch of writes, `store/write-batch.ts`). An error it throws
   *   is a report's failure.
   */
  constructor(
    private readonly limit: number,
    private readonly onFailure: (error: unknown) => void,
    private readonly beforeWait: () => void = () => {},
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`page reports: limit must be a whole number ≥ 1, got ${limit}`);
  }

  /**
   * Starts a page's report. Resolves at once while fewer than `limit` reports wait, else once
   * one has ended; never rejects (a failure goes to `onFailure`, and lets every waiting worker go).
   */
  async add(report: () => Promise<void>): Promise<void> {
    const running: Promise<void> = report()
      .catch((error: unknown) => this.#fail(error))
      .finally(() => {
        this.#pending.delete(running);
        this.#waiting.shift()?.();
      });
    this.#pending.add(running);
    if (this.#pending.size < this.limit || this.#failed) return;
    try {
      this.beforeWait();
    } catch (error) {
      this.#fail(error);
      return;
    }
    // Nothing settles synchronously: a report the commit hurried ends later, and lets one waiter go.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** The first failure, if a report failed. */
  get failure(): unknown {
    return this.#failure;
  }

  /** Reports not yet ended. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Resolves when every report started has ended (never rejects). */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }

  #fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#failure = error;
    this.onFailure(error);
    this.#waiting.splice(0).forEach((go) => go());
  }
}
