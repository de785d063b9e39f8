/**
 * One URL's fetch with the retry policy (`fetch/retry-policy.ts` decides, this runs it): each
 * attempt waits for its host's politeness slot like any request, and a failed attempt the policy
 * calls transient holds the host back (`backOff`) for the policy's wait before the next one.
 * Only the last attempt's result comes back; the crawl records that, with how many attempts.
 *
 * A caller's abort rejects as `fetchPage` does, also during a wait, so a stopped crawl keeps the
 * URL queued for a resume.
 */
import type { FetchedPage } from '../fetch/types.ts';
import { retryDelay, type RetryPolicy } from '../fetch/retry-policy.ts';
import type { CrawlFetcher } from './types.ts';

export interface AttemptedFetch {
  fetched: FetchedPage;
  /** Attempts made, ≥ 1. */
  attempts: number;
}

export async function fetchWithRetries(
  fetcher: CrawlFetcher,
  url: string,
  host: string,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): Promise<AttemptedFetch> {
  for (let attempts = 1; ; attempts++) {
    const release = await fetcher.acquire(url, host, signal);
    let fetched: FetchedPage;
    try {
      fetched = await fetcher.fetch(url, signal);
    } finally {
      release();
    }
    const retry = signal?.aborted ? undefined : retryDelay(fetched, attempts, policy);
    if (!retry) return { fetched, attempts };
    fetcher.backOff(host, retry.delayMs);
  }
}
