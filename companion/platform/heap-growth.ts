/**
 * How far V8 lets the companion's heap grow past what is live before a full collection.
 *
 * V8 sets the next full collection at live × a factor it picks between 1.1 and 4, the higher the
 * faster its collections run next to the program's allocation. A crawl allocates fast and keeps
 * little: on a 1,000-links-per-page crawl 45 MB stayed live after every full collection, yet the
 * heap reached 180–210 MB before each one (4×, `--trace-gc`), and the process 433 MB peak RSS
 * against issue 14's 300 MB (bench/frontier-bench.ts). Nothing was held per URL: the heap was
 * garbage awaiting a collection that V8 saw no reason to start.
 *
 * `--heap-growing-percent` fixes the factor at 1 + percent/100. V8 reads it at every full
 * collection, so setting it once the process runs takes effect (it is refused in NODE_OPTIONS).
 * At 50 % the same crawl peaked at 326 MB at about the same pages/s: full collections come more
 * often, but each costs time in proportion to what is live, which stays small.
 */
import { setFlagsFromString } from 'node:v8';

/** The heap may grow to live × (1 + this / 100) before the next full collection. */
export const HEAP_GROWING_PERCENT = 50;

/** Sets the factor for this process (the command line's entry calls it once). */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growing percent must be a whole number ≥ 1, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
