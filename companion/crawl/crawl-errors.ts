/**
 * Errors named for the reaction they need (STYLE.md 9), and the one function that decides.
 *
 * - `CrawlOptionsError`: the options cannot start a crawl (bad value, all seeds invalid, a
 *   resume that does not match). Nothing was fetched; fix the options.
 * - `SkipUrlError`: a hook wants this URL left alone. The URL is dropped from the frontier with
 *   the message as its reason; no page row, nothing counted.
 * - `StopCrawlError`: continuing is pointless or harmful (the store cannot be written, a hook
 *   says stop). The crawl ends, the pages recorded so far are kept, the error propagates.
 * - anything else thrown while handling one page is that page's error: recorded on its row
 *   (outcome `error`) and the crawl goes on.
 *
 * A failure of the store itself (SQLite: disk full, I/O error) always stops: a crawl that
 * cannot record what it fetched must not go on fetching.
 *
 * `SeedsUnreachableError`: a new crawl none of whose seeds' hosts answered (refused, not
 *   resolvable, timed out). Nothing was written; the crawl does not start.
 *
 * `BudgetReached` is no error of a page: it is the reason the run's stop signal carries when
 * maxPages pages are recorded, so the fetches it abandons reject with it, like a caller's abort.
 */

export class CrawlOptionsError extends Error {
  override readonly name = 'CrawlOptionsError';
}

export class SkipUrlError extends Error {
  override readonly name = 'SkipUrlError';
}

export class StopCrawlError extends Error {
  override readonly name = 'StopCrawlError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A seed that could not be reached, and why (`connection refused`, `host not found (DNS)`, …). */
export interface SeedFailure {
  url: string;
  reason: string;
}

/** No seed of a new crawl answered at all: nothing to start from. One line naming each seed. */
export class SeedsUnreachableError extends Error {
  override readonly name = 'SeedsUnreachableError';
  constructor(readonly failures: readonly SeedFailure[]) {
    super(`every seed is unreachable: ${failures.map(({ url, reason }) => `${url} (${reason})`).join('; ')}`);
  }
}

export class BudgetReached extends Error {
  override readonly name = 'BudgetReached';
  constructor(maxPages: number) {
    super(`${maxPages} pages recorded (maxPages)`);
  }
}

export type ErrorReaction = 'skip-url' | 'record-page-error' | 'stop-crawl';

/** The one place that maps an error met while handling a URL to what the crawl does. */
export function reactionTo(error: unknown): ErrorReaction {
  if (error instanceof SkipUrlError) return 'skip-url';
  if (error instanceof StopCrawlError || error instanceof CrawlOptionsError) return 'stop-crawl';
  if (error instanceof Error && error.name === 'SqliteError') return 'stop-crawl';
  return 'record-page-error';
}

/** One line for a page's `error` field. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0]!.slice(0, 500);
}
