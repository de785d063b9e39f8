/**
 * Starting or resuming a crawl's files: the store, its meta, the seeds, pages.jsonl.
 *
 * A new crawl checks its seeds first (an invalid seed is one line and the rest go on; none
 * valid is an error before anything is written), then creates `DIR/crawl.sqlite`. A resume
 * refuses a different strategy (scores of two conventions in one frontier would be nonsense),
 * warns about a different fingerprint (same convention, another model or topic), puts URLs a
 * dead run left in flight back in the queue, and rebuilds pages.jsonl from SQLite.
 *
 * A new crawl whose seeds' hosts all fail to answer stops there (`seed-check.ts`).
 *
 * Either way the directory is locked first (`DIR/crawl.lock`, `platform/directory-lock.ts`) and
 * stays locked until the session is closed: one process at a time in a crawl directory, whether
 * it is run by `crawl`, `collect` or the service. A second one fails in one line naming the
 * holder. A resume also repairs what two runs at once left before there was a lock: a URL both
 * recorded and queued is marked done instead of being fetched and recorded twice.
 *
 * With a shared frontier (`options.frontier`, Redis) the directory is this worker's own: its
 * store keeps the pages it records and pages.jsonl lists them, while the queue, the crawl's
 * seeds and its strategy live in Redis (`RedisFrontier.join`). Seeds a worker brings are added
 * to the crawl's; a worker may also join with none. A resume first settles the pages a killed
 * run left unconfirmed (`shared-recorder.ts`), before pages.jsonl is rebuilt from the store.
 */
import { normalizeUrl } from '../../shared/urls/normalize-url.ts';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import { lockDirectory, type DirectoryLock } from '../platform/directory-lock.ts';
import { CrawlStore } from '../store/crawl-store.ts';
import type { FrontierEntry } from '../store/records.ts';
import { CrawlOptionsError } from './crawl-errors.ts';
import { CRAWL_LIMITS } from './crawl-limits.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { PagesJsonl } from './pages-jsonl.ts';
import { connectCrawl, type CrawlNetwork } from './crawl-network.ts';
import { checkSeedsReachable, type SeedRobotsFailure } from './seed-check.ts';
import { DEFAULT_SEED_SCORE } from './strategies/crawl-strategy.ts';
import type { Frontier } from './frontier.ts';
import { SqliteFrontier } from './sqlite-frontier.ts';
import { RedisFrontier } from '../frontier/redis/redis-frontier.ts';
import { parseRedisFrontierUrl } from '../frontier/redis/redis-url.ts';
import type { SettledPages } from '../frontier/redis/shared-recorder.ts';

/** What a crawl records about itself in the store's meta table, key `crawl`. */
export interface CrawlMeta {
  strategy: string;
  fingerprint: string | null;
  seeds: string[];
  startedAt: string;
  /** The options of the first run (later runs may change limits such as maxPages). */
  options: { maxPages: number; maxDepth: number; window: number; maxPagesPerHost: number | null; userAgent: string };
}

/** The lock file in a crawl directory. */
export const LOCK_FILE = 'crawl.lock';

export interface CrawlSession {
  store: CrawlStore;
  /** Where the crawl's URLs wait: the store's own table, or a shared one in Redis. */
  frontier: Frontier;
  jsonl: PagesJsonl;
  resumed: boolean;
  /** URLs a killed run had in flight, queued again. */
  requeued: number;
  /** Every seed of the crawl, earlier runs' included (what a seed-hosts scope is of). */
  seeds: string[];
  /** What the crawl may reach, made of those seeds (`crawl-network.ts`). */
  network: CrawlNetwork;
  /** A new crawl's seed hosts whose robots.txt failed for now at the seed check: asked once already. */
  seedRobotsFailures: SeedRobotsFailure[];
  /** Closes the network side, pages.jsonl and the store, then frees the directory. */
  close(): Promise<void>;
}

/** Valid seeds, normalised; each invalid one reported in one line. */
export function checkSeeds(seeds: readonly string[], log: (line: string) => void): string[] {
  if (seeds.length > CRAWL_LIMITS.seeds) throw new CrawlOptionsError(`${seeds.length} seeds given, at most ${CRAWL_LIMITS.seeds}`);
  const valid: string[] = [];
  for (const seed of seeds) {
    if (seed.length > CRAWL_LIMITS.seedLength) {
      log(`crawl: skipping seed "${seed.slice(0, 60)}…": ${seed.length} characters long, at most ${CRAWL_LIMITS.seedLength}`);
      continue;
    }
    const url = normalizeUrl(seed.trim(), seed.trim());
    if (url === undefined) log(`crawl: skipping seed "${seed}": not an absolute http(s) URL`);
    else if (!valid.includes(url)) valid.push(url);
  }
  return valid;
}

/** Locks the crawl directory: one process at a time in it (see the file header). */
export function lockCrawlDirectory(outDir: string): DirectoryLock {
  return lockDirectory(outDir, LOCK_FILE, `the crawl directory ${outDir}`);
}

/**
 * Opens the crawl in `options.outDir`: locks the directory, and for a new crawl checks that it
 * holds none and that a seed can be reached (`seed-check.ts`, through the crawl's own network,
 * whose answers the crawl then reuses) before anything is written.
 */
export async function openSession(options: CrawlOptions, seeds: string[]): Promise<CrawlSession> {
  const lock = lockCrawlDirectory(options.outDir);
  let store: CrawlStore | undefined;
  let network: CrawlNetwork | undefined;
  let shared: RedisFrontier | undefined;
  try {
    let requeued = 0;
    let seedRobotsFailures: SeedRobotsFailure[] = [];
    let crawlSeeds: string[] | undefined;
    if (options.frontier !== null) {
      shared = await RedisFrontier.connect(parseRedisFrontierUrl(options.frontier), options);
      crawlSeeds = await shared.join(options.strategy.name, options.strategy.fingerprint ?? null, seedEntries(seeds, options));
    }
    const politeness = shared?.politeness();
    if (!options.resume) {
      CrawlStore.check(options.outDir, { create: true });
      network = await connectCrawl(options, crawlSeeds ?? seeds, politeness);
      if (seeds.length > 0) seedRobotsFailures = await checkSeedsReachable(seeds, network.fetcher, options.signal);
      store = CrawlStore.open(options.outDir, { create: true, cacheKiB: options.storeCacheKiB });
      initStore(store, options, seeds, shared === undefined);
    } else {
      store = CrawlStore.open(options.outDir, { create: false, cacheKiB: options.storeCacheKiB });
      requeued = resumeStore(store, options, seeds, shared === undefined);
    }
    // This run's model and settings, for `linkscent why` (a resume may bring another model).
    if (options.scoring !== undefined) store.setMeta('scoring', options.scoring);
    if (shared) logSettled(await shared.attach(store), options.log);
    const allSeeds = crawlSeeds ?? store.getMeta<CrawlMeta>('crawl')?.seeds ?? seeds;
    network ??= await connectCrawl(options, allSeeds, politeness);
    const jsonl = PagesJsonl.rebuild(options.outDir, store);
    const frontier: Frontier = shared ?? new SqliteFrontier(store);
    // On its own frontier the crawl commits several pages' claims and records at once
    // (`store/write-batch.ts`). A shared frontier's pages are synced one by one before Redis
    // counts them (`shared-recorder.ts`): nothing there to group.
    if (shared === undefined) store.batchWrites();
    const opened = { store, network };
    return {
      store,
      frontier,
      jsonl,
      resumed: options.resume,
      requeued,
      seeds: allSeeds,
      network,
      seedRobotsFailures,
      async close() {
        await opened.network.fetcher.close();
        await frontier.close();
        jsonl.close();
        opened.store.close();
        lock.release();
      },
    };
  } catch (error) {
    await network?.fetcher.close();
    await shared?.close();
    store?.close();
    lock.release();
    throw error;
  }
}

/** One line for what a resume settled of a killed worker's unconfirmed pages, when there was any. */
function logSettled({ kept, dropped, requeued }: SettledPages, log: (line: string) => void): void {
  if (kept + dropped + requeued === 0) return;
  log(`crawl: the last run of this worker left ${kept + dropped} page(s) unconfirmed by the shared crawl: ${kept} counted there, kept; ${dropped} not, dropped (fetched again by whoever claims them); ${requeued} URL(s) it held queued again`);
}

/** The seeds given, checked and normalised; none valid of several is an options error. */
export function validSeeds(options: CrawlOptions): string[] {
  const seeds = checkSeeds(options.seeds, options.log);
  if (options.seeds.length > 0 && seeds.length === 0) {
    throw new CrawlOptionsError(`none of the ${options.seeds.length} seed URL(s) is an absolute http(s) URL`);
  }
  return seeds;
}

function seedEntries(seeds: readonly string[], options: CrawlOptions): FrontierEntry[] {
  const score = options.strategy.seedScore ?? DEFAULT_SEED_SCORE;
  return seeds.map((url) => ({ url, score, depth: 0, parent: null, host: hostOf(url) }));
}

/** A new crawl's meta, and its seeds queued when the frontier is the store's own (`local`). */
function initStore(store: CrawlStore, options: CrawlOptions, seeds: string[], local: boolean): void {
  const meta: CrawlMeta = {
    strategy: options.strategy.name,
    fingerprint: options.strategy.fingerprint ?? null,
    seeds,
    startedAt: new Date().toISOString(),
    options: {
      maxPages: options.maxPages,
      maxDepth: options.maxDepth,
      window: options.window,
      maxPagesPerHost: options.maxPagesPerHost,
      userAgent: options.fetch.userAgent,
    },
  };
  store.setMeta('crawl', meta);
  if (local) store.enqueue(seedEntries(seeds, options));
}

function resumeStore(store: CrawlStore, options: CrawlOptions, seeds: string[], local: boolean): number {
  const meta = store.getMeta<CrawlMeta>('crawl');
  if (!meta) throw new CrawlOptionsError(`${options.outDir} holds an unfinished crawl store without its settings; start a new crawl`);
  if (meta.strategy !== options.strategy.name) {
    throw new CrawlOptionsError(
      `${options.outDir} was crawled with strategy ${meta.strategy}; resume it with --strategy ${meta.strategy}, or crawl into another directory`,
    );
  }
  const fingerprint = options.strategy.fingerprint ?? null;
  if (fingerprint !== meta.fingerprint) {
    options.log(`crawl: resuming with a different ${meta.strategy} model or topic than the crawl started with; queued URLs keep their old scores`);
  }
  const repaired = store.markRecordedDone();
  if (repaired > 0) {
    options.log(`crawl: ${repaired} URL(s) were recorded and also queued again (two runs at once, before crawl directories were locked); marked done, not fetched again`);
  }
  const requeued = store.requeueInFlight();
  const added = seeds.filter((seed) => !meta.seeds.includes(seed));
  if (added.length > 0) {
    if (local) store.enqueue(seedEntries(added, options));
    store.setMeta('crawl', { ...meta, seeds: [...meta.seeds, ...added] });
  }
  return requeued;
}
