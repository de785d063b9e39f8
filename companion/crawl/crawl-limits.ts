/**
 * Upper bounds on a crawl's numbers, the same for the command line and the service: past these a
 * value is a mistake, not a wish. `--delay-ms 1e12` parked every worker for 31 years and
 * `--concurrency 100000` opened sockets until the process fell over; a 1 MB seed made every
 * listing of the service 1 MB. `validateCrawlOptions` (every crawl) and the service's request
 * check both read them, so a value one side accepts the other does too.
 */
import { MAX_PARSE_THREADS } from '../parse/thread-count.ts';

export const CRAWL_LIMITS = {
  /** Pages of one crawl: a large site's worth, far beyond what one SQLite frontier is meant for. */
  maxPages: 10_000_000,
  maxDepth: 1_000,
  /** Fetches in flight; a polite crawler of one machine needs a few dozen at most. */
  concurrency: 64,
  perHostConcurrency: 64,
  /** Threads parsing pages off the event loop; past a machine's cores they only cost memory. */
  parseThreads: MAX_PARSE_THREADS,
  /** Ten minutes between two fetches of one host; a longer wait is a typo. */
  delayMs: 600_000,
  /** Seeds of one crawl. */
  seeds: 10_000,
  /** Characters of one seed URL: browsers and servers stop at 8 KiB (RFC 9110 §4.1 asks for 8,000 octets). */
  seedLength: 8_192,
} as const;
