/**
 * Starting or resuming a crawl's files: the store, its meta, the seeds, pages.jsonl.
 *
 * A new crawl checks its seeds first (an invalid seed is one line and the rest go on; none
 * valid is an error before anything is written), then creates `DIR/crawl.sqlite`. A resume
 * refuses a different strategy (scores of two conventions in one frontier would be nonsense),
 * warns about a different fingerprint (same convention, another model or topic), puts URLs a
 * dead run left in flight back in the queue, and rebuilds pages.jsonl from SQLite.
 */
import { normalizeUrl } from '../../shared/urls/normalize-url.ts';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import { CrawlStore } from '../store/crawl-store.ts';
import type { FrontierEntry } from '../store/records.ts';
import { CrawlOptionsError } from './crawl-errors.ts';
import type { CrawlOptions } from './crawl-options.ts';
import { PagesJsonl } from './pages-jsonl.ts';
import { DEFAULT_SEED_SCORE } from './strategies/crawl-strategy.ts';

/** What a crawl records about itself in the store's meta table, key `crawl`. */
export interface CrawlMeta {
  strategy: string;
  fingerprint: string | null;
  seeds: string[];
  startedAt: string;
  /** The options of the first run (later runs may change limits such as maxPages). */
  options: { maxPages: number; maxDepth: number; window: number; maxPagesPerHost: number | null; userAgent: string };
}

export interface CrawlSession {
  store: CrawlStore;
  jsonl: PagesJsonl;
  resumed: boolean;
  /** URLs a killed run had in flight, queued again. */
  requeued: number;
  /** Every seed of the crawl, earlier runs' included (what a seed-hosts scope is of). */
  seeds: string[];
}

/** Valid seeds, normalised; each invalid one reported in one line. */
export function checkSeeds(seeds: readonly string[], log: (line: string) => void): string[] {
  const valid: string[] = [];
  for (const seed of seeds) {
    const url = normalizeUrl(seed.trim(), seed.trim());
    if (url === undefined) log(`crawl: skipping seed "${seed}": not an absolute http(s) URL`);
    else if (!valid.includes(url)) valid.push(url);
  }
  return valid;
}

export function openSession(options: CrawlOptions): CrawlSession {
  const seeds = checkSeeds(options.seeds, options.log);
  if (options.seeds.length > 0 && seeds.length === 0) {
    throw new CrawlOptionsError(`none of the ${options.seeds.length} seed URL(s) is an absolute http(s) URL`);
  }
  const store = CrawlStore.open(options.outDir, { create: !options.resume });
  try {
    const requeued = options.resume ? resumeStore(store, options, seeds) : initStore(store, options, seeds);
    // This run's model and settings, for `linkscent why` (a resume may bring another model).
    if (options.scoring !== undefined) store.setMeta('scoring', options.scoring);
    const jsonl = PagesJsonl.rebuild(options.outDir, store);
    const allSeeds = store.getMeta<CrawlMeta>('crawl')?.seeds ?? seeds;
    return { store, jsonl, resumed: options.resume, requeued, seeds: allSeeds };
  } catch (error) {
    store.close();
    throw error;
  }
}

function seedEntries(seeds: readonly string[], options: CrawlOptions): FrontierEntry[] {
  const score = options.strategy.seedScore ?? DEFAULT_SEED_SCORE;
  return seeds.map((url) => ({ url, score, depth: 0, parent: null, host: hostOf(url) }));
}

function initStore(store: CrawlStore, options: CrawlOptions, seeds: string[]): number {
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
  store.enqueue(seedEntries(seeds, options));
  return 0;
}

function resumeStore(store: CrawlStore, options: CrawlOptions, seeds: string[]): number {
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
  const requeued = store.requeueInFlight();
  const added = seeds.filter((seed) => !meta.seeds.includes(seed));
  if (added.length > 0) {
    store.enqueue(seedEntries(added, options));
    store.setMeta('crawl', { ...meta, seeds: [...meta.seeds, ...added] });
  }
  return requeued;
}
