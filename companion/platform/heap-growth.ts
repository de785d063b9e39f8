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
 * often, but each costs time in proportion to what is live, which stays small. At 30 % the old
 * generation at the frontier bench's nb RSS peak was 57–63 MB, against 65–69 at 50 % (five runs
 * each, helper-44).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The heap may grow to live × (1 + this / 100) before the next full collection. */
export const HEAP_GROWING_PERCENT = 30;

/** Sets the factor for this process (the command line's entry calls it once). */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) throw new RangeError(`heap growing percent must be a whole number ≥ 1, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * The main thread's young generation, in MiB: V8's new space, two semi-spaces of half this each.
 *
 * V8 starts new space at 2 MiB and doubles it whenever a scavenge's survivors outgrow it, up to
 * 32 MiB (two 16 MiB semi-spaces on 64-bit), and keeps it all committed. On the frontier bench's
 * nb crawl (issue 14: peak RSS ≤ 300 MB) new space was 33.55 MB at the RSS peak in every run, a
 * tenth of the budget, though a crawl keeps little from one page to the next. With node's
 * `--max-semi-space-size` at 1, 2, 4 MiB and V8's 16 the crawl peaked at 266, 289, 280–283 and
 * 300–311 MB; 1 MiB cost the process 13 % more CPU, 4 MiB none that runs could tell apart.
 *
 * That flag only works on node's command line: it sizes the heap when the heap is made, and the
 * bin runs in a node it did not start. What V8 does read as it runs is
 * `--semi-space-growth-factor`, at each growth. So `limitYoungGeneration` grows new space to this
 * size at once, with V8's factor, by churning a few MB of short-lived objects (10–25 ms), then
 * sets the factor to 1: new space stays as it is. Up front, because growth left to V8 happens
 * inside a collection, where no JavaScript can say stop, and a long synchronous stretch (loading
 * an 8.6 MB model) can double it more than once.
 *
 * Two things undo the hold, and a GC observer redoes it after every collection: V8 shrinks new
 * space when allocation is slow (start-up waits, an idle service), and the observer grows it back
 * the same way; and every isolate V8 configures (a worker thread's) puts the factor back to at
 * least 2 for the whole process, so the parse pool holds it again once its thread runs
 * (`holdYoungGeneration`), with the event loop waiting meanwhile: held on the thread's 'online'
 * event instead, new space was 16.8 or 33.5 MB at the frontier bench's nb RSS peak in most runs.
 */
export const YOUNG_GENERATION_MIB = 8;

/** V8's own `--semi-space-growth-factor`. */
const GROWTH_FACTOR = 2;

/** Most objects the up-front growth allocates (≈ 16 MB) before giving up, should V8 not grow. */
const MAX_CHURN = 500_000;

function newSpace() {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
}

/** New space's committed size now, bytes (both semi-spaces once it has been collected). */
export function newSpaceBytes(): number {
  return newSpace()?.space_size ?? 0;
}

/**
 * New space's capacity, both semi-spaces, bytes: used + available is one semi-space's room
 * (pages less their headers, 98 %). Not the committed size, which drops by half when V8
 * uncommits the idle semi-space and would read as a smaller new space than it is.
 */
function newSpaceCapacity(): number {
  const space = newSpace();
  return space ? 2 * (space.space_used_size + space.space_available_size) : 0;
}

/** Capacity at which new space counts as grown to `limit` (page headers take 2 %). */
const grown = (limit: number) => newSpaceCapacity() >= 0.9 * limit;

/** Whether node was started with its own young generation size, which this then leaves alone. */
function sizedOnCommandLine(): boolean {
  const flag = /--(max|min)[-_]semi[-_]space[-_]size/;
  return process.execArgv.some((arg) => flag.test(arg)) || flag.test(process.env['NODE_OPTIONS'] ?? '');
}

/**
 * Holds the main thread's new space at `mib` (see above); returns a function that hands growth
 * back to V8. Does nothing when node's command line sized the young generation itself.
 */
export function limitYoungGeneration(mib: number = YOUNG_GENERATION_MIB): () => void {
  if (!Number.isInteger(mib) || mib < 2) throw new RangeError(`young generation must be a whole number of MiB ≥ 2, got ${mib}`);
  if (sizedOnCommandLine()) return () => {};
  const limit = mib * 2 ** 20;
  growNewSpaceTo(limit);
  youngLimit = limit;
  // After every collection: grow it back if V8 shrank it (it does when allocation is slow), and
  // hold it again, as a new isolate (a worker thread) has put V8's factor back to 2.
  const observer = new PerformanceObserver(holdYoungGeneration);
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    youngLimit = undefined;
    setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR}`);
  };
}

/** The limit `limitYoungGeneration` holds, bytes, if it is on. */
let youngLimit: number | undefined;

/**
 * Holds new space where `limitYoungGeneration` put it; for code that has just started a worker
 * thread, whose isolate sets V8's growth factor back to 2 (V8 makes every heap it configures
 * with a factor of at least 2; measured: new space 8 → 32 MiB on the next churn). No-op when the
 * limit is off.
 */
export function holdYoungGeneration(): void {
  if (youngLimit === undefined) return;
  if (grown(youngLimit)) setFlagsFromString('--semi-space-growth-factor=1');
  else growNewSpaceTo(youngLimit);
}

/**
 * Lets V8 grow new space by its own factor while this churns objects that live across a
 * scavenge or two, as a crawl's do (V8 grows it when that many survive), until it is `limit`
 * bytes, then holds it: factor 1. Checked every 10,000 objects (≈ 0.3 MB): never a doubling late.
 */
function growNewSpaceTo(limit: number): void {
  setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR}`);
  let ring: object[] = [];
  for (let made = 0; made < MAX_CHURN && (made % 10_000 !== 0 || !grown(limit)); made++) {
    ring.push({ made });
    if (ring.length === 50_000) ring = [];
  }
  setFlagsFromString('--semi-space-growth-factor=1');
}
