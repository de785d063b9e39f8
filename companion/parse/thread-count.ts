/**
 * How many parse threads a crawl starts (`parse-pool.ts`): its own module, so the crawl's options
 * and the command line's help read the default without loading the parser or worker_threads.
 */
import { availableParallelism } from 'node:os';

/** At most this many parse threads (`--parse-threads`). */
export const MAX_PARSE_THREADS = 16;

/**
 * One thread per core the event loop leaves, at most 4: the event loop keeps one core; past four
 * the parse is rarely what a crawl waits for. 0 on one core: parsing stays on the event loop.
 */
export const DEFAULT_PARSE_THREADS = Math.min(4, Math.max(0, availableParallelism() - 1));
