/**
 * The crawl loop's view of the network, in a file of its own: `process-url.ts` drives it,
 * `fetch-with-retries.ts` runs the retry policy over it and `default-fetcher.ts` builds it, and
 * none of them needs another's code to name it.
 */
import type { RobotsAccess } from '../fetch/robots.ts';
import type { FetchedPage } from '../fetch/types.ts';

/** The network side the loop needs, composed from the fetch layer in `crawler.ts`. */
export interface CrawlFetcher {
  /** What robots.txt says of this URL; rejects with the signal's reason when it aborts first. */
  robotsAccess(url: string, signal: AbortSignal | undefined): Promise<RobotsAccess>;
  /** Waits for a politeness slot on the URL's host; call the result when the fetch is over. */
  acquire(url: string, host: string, signal: AbortSignal | undefined): Promise<() => void>;
  /** Holds new requests to the host back for `delayMs` (a Retry-After, a retry's backoff). */
  backOff(host: string, delayMs: number): void;
  fetch(url: string, signal: AbortSignal | undefined): Promise<FetchedPage>;
}
