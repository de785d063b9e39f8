/**
 * An unreachable seed fails fast (issue 13): before a new crawl writes anything, each seed's host
 * is asked for its robots.txt, the question the crawl asks first anyway (the answers are cached,
 * so the crawl does not ask again). When no seed's host answers at all (connection refused, name
 * not resolvable, timed out: no HTTP status), the crawl has nothing to start from, and stops in
 * one line naming each seed and why, rather than recording every seed as a failure or waiting
 * minutes to ask again. A host that answers anything, even an error, is reachable; a seed page
 * that then fails is an ordinary page error.
 */
import { SeedsUnreachableError, type SeedFailure } from './crawl-errors.ts';
import type { CrawlFetcher } from './types.ts';

/**
 * Throws `SeedsUnreachableError` when not one of `seeds` can be reached. Returns quietly when
 * `signal` aborts first: the crawl then starts and stops as any stopped crawl does.
 */
export async function checkSeedsReachable(seeds: readonly string[], fetcher: CrawlFetcher, signal: AbortSignal | undefined): Promise<void> {
  let failures: (SeedFailure | undefined)[];
  try {
    failures = await Promise.all(
      seeds.map(async (url) => {
        const access = await fetcher.robotsAccess(url, signal);
        return typeof access === 'object' && access.noAnswer ? { url, reason: access.noAnswer.message } : undefined;
      }),
    );
  } catch (error) {
    if (signal?.aborted) return;
    throw error;
  }
  if (seeds.length > 0 && failures.every((failure) => failure !== undefined)) throw new SeedsUnreachableError(failures as SeedFailure[]);
}
