/**
 * The retry policy: which finished fetches are worth another attempt within the crawl, and how
 * long to wait first. `retryDelay` is the one function that decides; the crawl loop only runs
 * its answer (`crawl/fetch-with-retries.ts`).
 *
 * Transient, and retried: no usable response because the connection was reset, refused or
 * closed mid-response, or a connect/response timeout (the network failures `fetch-errors.ts`
 * marks retryable), and HTTP 408, 429, 502, 503 and 504. Not retried: every other status (a 404
 * stays a 404; a 500 is usually a bug that a few seconds will not fix), and every outcome that
 * is a property of the page (not HTML, too large, a redirect loop, a robots denial).
 *
 * Wait before attempt n + 1, after n failed attempts:
 *   - the response's Retry-After (429, 503) when it gave one, if at most `maxRetryAfterMs`; a
 *     server asking for longer is not asked again this crawl (the page is recorded as it failed),
 *     since asking sooner than it said would be impolite: got's `maxRetryAfter` does the same;
 *   - otherwise backoffMs · 2^(n − 1): 1 s, then 2 s with the defaults. No jitter: the host
 *     scheduler already spaces requests to one host.
 * The wait applies to the whole host, not only this URL (`HostScheduler.backOff`): a server that
 * says it is overloaded is overloaded for every page.
 *
 * A host whose robots.txt is unreachable (5xx, 429, timeout, reset, refused: RFC 9309 says crawl
 * nothing then) is set aside for `robotsRetryMs` and asked again, up to `retries` times; its URLs
 * stay queued meanwhile, the other hosts go on. Only then are they recorded: robots-denied, or
 * with the host's network failure when it never answered at all. A host name that does not
 * resolve is recorded at once: waiting would only hold up the crawl's end. A crawl with nothing
 * left but set-aside hosts does not wait for them either (`crawl/crawler.ts`).
 */
import type { FetchedPage } from './types.ts';

export interface RetryPolicy {
  /** Further attempts after the first for a transient failure. Default 2; 0 turns retries off; at most `MAX_RETRIES`. */
  retries: number;
  /** Wait in ms before the first retry without Retry-After, doubled for each further one. Default 1 000. */
  backoffMs: number;
  /** Longest Retry-After in ms that is waited out; a longer one ends the attempts. Default 30 000. */
  maxRetryAfterMs: number;
  /** How long a host with an unreachable robots.txt is set aside before it is asked again. Default 300 000 (Google's order). */
  robotsRetryMs: number;
}

export const MAX_RETRIES = 10;

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({ retries: 2, backoffMs: 1_000, maxRetryAfterMs: 30_000, robotsRetryMs: 300_000 });

/** HTTP statuses that say "not now" rather than "no". */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/** Why another attempt is made, and after how long (ms from now). */
export interface RetryDecision {
  delayMs: number;
  /** 'retry-after': the server's own Retry-After; 'backoff': ours. */
  basis: 'retry-after' | 'backoff';
}

/**
 * Whether to try `page`'s URL again after `attempts` attempts (≥ 1), and when; undefined means
 * `page` is the final outcome.
 */
export function retryDelay(page: Pick<FetchedPage, 'outcome' | 'status' | 'retryable' | 'retryAfterMs'>, attempts: number, policy: RetryPolicy): RetryDecision | undefined {
  if (attempts > policy.retries || !isTransient(page)) return undefined;
  if (page.retryAfterMs !== undefined) {
    return page.retryAfterMs <= policy.maxRetryAfterMs ? { delayMs: page.retryAfterMs, basis: 'retry-after' } : undefined;
  }
  return { delayMs: policy.backoffMs * 2 ** (attempts - 1), basis: 'backoff' };
}

function isTransient(page: Pick<FetchedPage, 'outcome' | 'status' | 'retryable'>): boolean {
  switch (page.outcome) {
    case 'timeout':
      return true;
    case 'network-error':
      // fetch-errors.ts decided: reset, refused, closed mid-response yes; DNS, TLS, a body
      // that cannot be decoded no.
      return page.retryable === true;
    case 'http-error':
      return RETRY_STATUSES.has(page.status);
    default:
      return false;
  }
}

/**
 * A Retry-After header in ms from `now`: delta-seconds (`120`) or an HTTP date (RFC 9110
 * §10.2.3); a date in the past is 0. Undefined when absent or not understood.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
  }
  if (!/[a-z]/i.test(text)) return undefined; // "1.5", "-3": not a date either
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
