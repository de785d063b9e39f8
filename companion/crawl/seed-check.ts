/**
 * An unreachable seed fails fast (issue 13): before a new crawl writes anything, each seed's host
 * is asked for its robots.txt, the question the crawl asks first anyway (the answers are cached,
 * so the crawl does not ask again). When no seed's host answers at all (connection refused, name
 * not resolvable, timed out: no HTTP status), the crawl has nothing to start from, and stops in
 * one line naming each seed and why, rather than recording every seed as a failure or waiting
 * minutes to ask again. A host that answers anything, even an error, is reachable; a seed page
 * that then fails is an ordinary page error.
 *
 * A seed host whose robots.txt could not be fetched for now (an error status, or no answer) has
 * had its first question: the crawl counts it (`SeedRobotsFailure`, `CrawlState.countSeedVerdict`),
 * so that it is not lost when the cached answer expires before the crawl reaches the host (a busy
 * start), and the host is asked `retries` more times, not `retries + 1`.
 */
import { hostOf } from '../../shared/urls/normalize-url.ts';
import { SeedsUnreachableError, type SeedFailure } from './crawl-errors.ts';
import type { CrawlFetcher } from './types.ts';

/** A seed host's robots.txt that failed for now: when it may be asked again, and why. */
export interface SeedRobotsFailure {
  host: string;
  until: number;
  reason: string;
}

/**
 * Throws `SeedsUnreachableError` when not one of `seeds` can be reached; otherwise the seed hosts
 * whose robots.txt failed for now. Returns no failures when `signal` aborts first: the crawl then
 * starts and stops as any stopped crawl does.
 */
export async function checkSeedsReachable(seeds: readonly string[], fetcher: CrawlFetcher, signal: AbortSignal | undefined): Promise<SeedRobotsFailure[]> {
  let answers: { unreachable?: SeedFailure; failed?: SeedRobotsFailure }[];
  try {
    answers = await Promise.all(
      seeds.map(async (url) => {
        const access = await fetcher.robotsAccess(url, signal);
        if (typeof access !== 'object') return {};
        const failed = access.transient ? { host: hostOf(url), until: access.unreachableUntil, reason: access.reason } : undefined;
        return {
          ...(access.noAnswer ? { unreachable: { url, reason: access.noAnswer.message } } : {}),
          ...(failed ? { failed } : {}),
        };
      }),
    );
  } catch (error) {
    if (signal?.aborted) return [];
    throw error;
  }
  if (seeds.length > 0 && answers.every((answer) => answer.unreachable !== undefined)) {
    throw new SeedsUnreachableError(answers.map((answer) => answer.unreachable as SeedFailure));
  }
  return answers.flatMap((answer) => (answer.failed ? [answer.failed] : []));
}
