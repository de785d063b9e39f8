/**
 * One run of a service crawl: the crawl's model (when it has one) becomes its strategy and its
 * topic's hooks (`crawl-topic.ts`), `runCrawl` goes until it is done, aborted or fails, and its
 * progress and its end are written to the crawl's record. Never throws: a failure is the
 * crawl's `failed` state with one line of error. One exception: a crawl directory another
 * process holds (`linkscent crawl --resume --out` of it) is no failure of the crawl; the crawl
 * is paused, with a line in the log, and can be resumed once that process is done.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Topic } from '../../shared/model/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { runCrawl } from '../crawl/crawler.ts';
import type { CrawlProgress } from '../crawl/progress.ts';
import { NB_DEFAULTS, nbCrawl, type NbCrawl } from '../crawl/nb-crawl.ts';
import { createStrategy, type CrawlStrategy } from '../crawl/strategies/index.ts';
import { DirectoryInUseError } from '../platform/directory-lock.ts';
import { oneLine } from '../platform/one-line.ts';
import { CrawlStore, STORE_FILE } from '../store/crawl-store.ts';
import { DEFAULT_WARC_FILE_BYTES } from '../warc/warc-defaults.ts';
import type { CrawlEntry, Run } from './crawl-entry.ts';
import { infoProgress, MODEL_FILE } from './crawl-record.ts';
import { topicCrawlParts } from './crawl-topic.ts';
import type { DecodedModels } from './model-registry.ts';

/**
 * SQLite page cache per connection of a served crawl, in KiB (better-sqlite3 builds SQLite with
 * 16,000). A running crawl holds two connections (its store, and the one its labels go through):
 * with twenty crawls, caches that may grow to 640 MB as the stores grow. At 512 KiB the soak bench
 * measured the service's RSS 550 → 529 MB at its peak and 492 → 452 MB at its end, at the same
 * p99 latency (before crawls shared one built model; after, the end 463 → 449 MB and the peak
 * within the runs' noise); pages that fall out of the cache come back from the operating system's.
 */
export const SERVED_STORE_CACHE_KIB = 512;

export interface RunDeps {
  log: (line: string) => void;
  /** The jieba tokenizer, loaded once for every crawl of the service. */
  tokenizer(): Promise<Tokenizer>;
  /** The service's turns, shared by its crawls (`page-turns.ts`). */
  turn(): Promise<void>;
  /** Model files decoded once for the service, loaded one at a time (`model-registry.ts`). */
  models: DecodedModels;
  /**
   * The service's shared frontier (`serve --frontier`, `LINKSCENT_FRONTIER`): each crawl runs on
   * it as `?crawl=<its id>`, so `linkscent crawl --frontier <it>?crawl=<id>` processes on any
   * machine join it. Undefined: crawls run on their store's own frontier.
   */
  frontier?: string;
}

/** The crawl's shared frontier URL: the service's, naming the crawl by its id. */
export function crawlFrontier(base: string, id: string): string {
  const url = new URL(base);
  url.searchParams.set('crawl', id);
  return url.href;
}

/** Starts a run of `entry` in the background; `entry.run.done` settles when it is over. */
export function startRun(entry: CrawlEntry, resume: boolean, deps: RunDeps): void {
  const run: Run = { controller: new AbortController(), shutdown: false, done: Promise.resolve() };
  entry.run = run;
  run.done = execute(entry, run, resume, deps);
}

async function execute(entry: CrawlEntry, run: Run, resume: boolean, deps: RunDeps): Promise<void> {
  const { plan } = entry.record;
  const elapsedBefore = entry.record.elapsedBeforeMs;
  try {
    const { strategy, topic, nbOptions } = await strategyFor(entry, deps);
    const frontier = deps.frontier === undefined ? null : crawlFrontier(deps.frontier, entry.id);
    const parts = topicCrawlParts({
      topic,
      scoresAreModel: plan.strategy === 'nb',
      addLabels: (links) => {
        run.labels ??= CrawlStore.open(entry.dir, { create: false, cacheKiB: SERVED_STORE_CACHE_KIB });
        run.labels.addLabeledLinks(links);
      },
    });
    // A crawl killed after crawl.json was written but before its store was made starts afresh.
    const resumeStore = resume && existsSync(join(entry.dir, STORE_FILE));
    const summary = await runCrawl({
      seeds: resumeStore ? [] : plan.seeds,
      outDir: entry.dir,
      maxPages: plan.maxPages,
      maxDepth: plan.maxDepth,
      concurrency: plan.concurrency,
      delayMs: plan.delayMs,
      strategy,
      ...nbOptions,
      // Out-of-scope links are never queued (records made before `scope` carry only sameSite).
      scope: { scope: plan.scope ?? (plan.sameSite ? 'seed-hosts' : 'any'), allow: [], deny: [] },
      resume: resumeStore,
      warc: plan.warc ? { maxFileBytes: DEFAULT_WARC_FILE_BYTES } : null,
      storeText: plan.storeText ?? false,
      storeCacheKiB: SERVED_STORE_CACHE_KIB,
      frontier,
      hooks: parts.hooks,
      pageJudge: parts.pageJudge,
      relevanceThreshold: parts.relevanceThreshold,
      signal: run.controller.signal,
      turn: deps.turn,
      onProgress: (progress) => onProgress(entry, run, progress, elapsedBefore),
      log: (line) => deps.log(`crawl ${entry.id}: ${line}`),
    });
    ended(entry, run, summary.stoppedBy === 'aborted' ? undefined : { state: 'done' });
  } catch (error) {
    if (error instanceof DirectoryInUseError) {
      deps.log(`crawl ${entry.id} paused: ${oneLine(error)}`);
      ended(entry, run, { state: 'paused' });
      return;
    }
    deps.log(`crawl ${entry.id} failed: ${oneLine(error)}`);
    ended(entry, run, { state: 'failed', error: oneLine(error) });
  } finally {
    run.labels?.close();
    run.labels = undefined;
  }
}

/** The crawl's strategy: nb as the command line runs it, every part on (`crawl/nb-crawl.ts`), else bfs. */
async function strategyFor(entry: CrawlEntry, deps: RunDeps): Promise<{ strategy: CrawlStrategy; topic: Topic | null; nbOptions?: NbCrawl['options'] }> {
  const { plan, topic } = entry.record;
  if (topic === null) return { strategy: createStrategy('bfs'), topic: null };
  const { loadLinkScorer } = await import('../model/link-model-file.ts');
  const tokenizer = await deps.tokenizer();
  const loaded = await deps.models.serial(() => loadLinkScorer(join(entry.dir, MODEL_FILE), tokenizer, topic.id, deps.models));
  if (plan.strategy !== 'nb') return { strategy: createStrategy('bfs'), topic: loaded.topic };
  // On a shared frontier, nb runs without what is kept per process (`crawl-options.ts`).
  const parts = deps.frontier === undefined ? NB_DEFAULTS : { ...NB_DEFAULTS, onlineEvery: null, hostBudget: null };
  const nb = nbCrawl(loaded, parts, false, (line) => deps.log(`crawl ${entry.id}: ${line}`));
  return { strategy: nb.strategy, topic: loaded.topic, nbOptions: nb.options };
}

function onProgress(entry: CrawlEntry, run: Run, progress: CrawlProgress, elapsedBefore: number): void {
  if (entry.run !== run) return;
  run.lastProgress = progress;
  entry.record.progress = infoProgress(progress, elapsedBefore);
  entry.saveIfDue();
  entry.notify();
}

/** A run is over: its time is added up, and the crawl is done, failed or paused unless paused, stopped or closing. */
function ended(entry: CrawlEntry, run: Run, outcome: { state: 'done' | 'failed' | 'paused'; error?: string } | undefined): void {
  // The run's last report (its final one) is already in record.progress; bank its time.
  entry.record.elapsedBeforeMs += run.lastProgress?.elapsedMs ?? 0;
  if (entry.run === run) entry.run = undefined;
  if (outcome !== undefined && entry.record.state === 'running' && !run.shutdown) {
    entry.record.state = outcome.state;
    if (outcome.error !== undefined) entry.record.error = outcome.error;
  }
  entry.save();
  entry.notify();
}
