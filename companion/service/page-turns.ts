/**
 * One URL's work per event-loop turn, across every crawl of the service.
 *
 * A crawl's work between two waits on the network (parse a page, score its links, commit its
 * transaction, claim the next URL) is synchronous, and much of it runs as promise continuations:
 * Node runs those all before it reads the next request. With 20 crawls of 4 workers each, and
 * URLs that need no network at all (robots.txt already refused their host), the service did
 * minutes of crawl work between two requests (bench/soak-bench.ts: the first `GET /api/crawls`
 * answered after 58 s, 85 % of the CPU profile inside one microtask drain).
 *
 * So a served crawl takes a turn (`CrawlOptions.turn`) before it claims a URL, once the page is
 * fetched, and between slices of online learning's re-scoring. Turns are granted one per
 * event-loop iteration, in the order asked, by `setImmediate`: between two grants Node polls
 * the network, so a request waits for at most one page's work, whichever crawl it is.
 */
export class PageTurns {
  readonly #waiting: (() => void)[] = [];
  #scheduled = false;

  /** Resolves on a later iteration of the event loop, after the requests that came meanwhile were read. */
  readonly take = (): Promise<void> =>
    new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });

  /** Turns asked for and not yet granted. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #schedule(): void {
    if (this.#scheduled || this.#waiting.length === 0) return;
    this.#scheduled = true;
    setImmediate(this.#grant);
  }

  // An immediate queued from inside an immediate runs on the next iteration, after its poll.
  readonly #grant = (): void => {
    this.#scheduled = false;
    this.#waiting.shift()?.();
    this.#schedule();
  };
}
