/**
 * The crawl loop: `runCrawl(options)` fetches in priority order (higher score sooner) until
 * maxPages pages are fetched, the frontier runs dry, or `signal` aborts.
 *
 * Data flow, one URL at a time per worker (`concurrency` workers):
 *   1. claim the best queued URL whose host has a free slot, within the strategy's claim window
 *      (SQLite index walk, `CrawlState.decide`)
 *   2. beforeFetch hooks → robots.txt → host politeness slot (delay, Crawl-delay) → fetch; a
 *      transient failure is fetched again, through the host's slot, after a backoff or its
 *      Retry-After (`fetch-with-retries.ts`, `fetch/retry-policy.ts`)
 *   3. afterFetch hooks → segments → link contexts → afterParse → strategy scores → linksScored
 *   4. one transaction: page row + URL done + children upserted (max score) → pages.jsonl line
 *      → host budget (`host-budget.ts`) and, every N pages, online learning
 *      (`online-learning.ts`: both classifiers updated, the frontier's head re-scored)
 *      → pageStored hooks → progress
 * A page's failure is recorded on its row and the crawl goes on (`crawl-errors.ts` decides).
 */
import type { CrawlOptions, CrawlOptionsInput } from './crawl-options.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import { validateCrawlOptions } from './crawl-options.ts';
import { openSession } from './crawl-session.ts';
import { CrawlState } from './crawl-state.ts';
import { createFetcher } from './default-fetcher.ts';
import { PAGES_FILE } from './pages-jsonl.ts';
import { processUrl, type UrlContext } from './process-url.ts';
import { basename, join } from 'node:path';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import { STORE_FILE } from '../store/crawl-store.ts';
import { HostBudget } from './host-budget.ts';
import { OnlineLearner } from './online-learning.ts';
import { compileScope } from './url-scope.ts';
import { DEFAULT_CLAIM_WINDOW } from './strategies/crawl-strategy.ts';
import { WarcWriter } from '../warc/warc-writer.ts';

/** Resolves after `ms`, or at once when `signal` aborts (the loop then sees the abort). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}

export type StopReason = 'max-pages' | 'frontier-empty' | 'aborted';

export interface CrawlSummary {
  outDir: string;
  pagesFile: string;
  storeFile: string;
  resumed: boolean;
  /** URLs a killed earlier run had in flight, queued again by this run. */
  requeued: number;
  /** Pages fetched over the whole crawl, and by this run (robots-denied URLs not counted). */
  fetched: number;
  fetchedThisRun: number;
  robotsDenied: number;
  /** Fetched pages whose outcome was not ok. */
  errors: number;
  judged: number;
  relevant: number;
  /** relevant / judged; null without a page judge. */
  harvest: number | null;
  /** URLs still queued. */
  queued: number;
  stoppedBy: StopReason;
  elapsedMs: number;
}

export async function runCrawl(input: CrawlOptionsInput): Promise<CrawlSummary> {
  const options = validateCrawlOptions(input);
  const session = openSession(options);
  const { store, jsonl } = session;
  const state = new CrawlState(store, options);
  const fetcher = createFetcher(options);
  const claimWindow = options.strategy.claimWindow ?? DEFAULT_CLAIM_WINDOW;
  const budget = options.hostBudget === null ? undefined : new HostBudget(store, options.hostBudget, options.relevanceThreshold);
  const hostPenalty = (host: string) => budget?.penalty(host) ?? 0;
  const learner = options.online
    ? new OnlineLearner(store, options.strategy, options.online.models, { ...options.online, relevanceThreshold: options.relevanceThreshold }, hostPenalty)
    : undefined;
  const inScope = compileScope(options.scope, session.seeds);
  let warc: WarcWriter | undefined;
  try {
    warc = options.warc ? openWarc(options, session.seeds, store) : undefined;
  } catch (error) {
    await fetcher.close();
    jsonl.close();
    store.close();
    throw error;
  }
  const ctx: UrlContext = {
    options,
    inScope,
    store,
    jsonl,
    state,
    fetcher,
    warc,
    hostPenalty,
    recorded(record) {
      if (record.outcome === 'robots-denied') return;
      budget?.settled(hostOf(record.url), record.relevance === undefined ? undefined : record.relevance >= options.relevanceThreshold);
      learner?.pageRecorded();
    },
  };
  let failure: unknown;
  const onAbort = () => state.wake();
  options.signal?.addEventListener('abort', onAbort);

  async function worker(): Promise<void> {
    while (!options.signal?.aborted && failure === undefined) {
      const row = state.budgetLeft ? store.claimNext(state.decide, claimWindow, state.deferredHosts()) : undefined;
      if (!row) {
        if (state.inFlight === 0) {
          // Hosts set aside (robots.txt unreachable) hold URLs still to come: wait for the first.
          const resumeAt = state.budgetLeft ? state.nextDeferralEnd() : undefined;
          if (resumeAt !== undefined) {
            await sleep(resumeAt - Date.now(), options.signal);
            continue;
          }
          state.wake(); // nothing queued (or budget spent) and nothing coming: everyone stops
          return;
        }
        // A worker ending its task claims again itself and, when that succeeds, wakes one
        // waiter (below): claims cascade while they succeed, and one walk fails per page.
        await state.changed();
        continue;
      }
      state.wakeOne();
      state.begin(row.host);
      try {
        await processUrl(ctx, row);
      } catch (error) {
        failure ??= error;
        state.wake();
      } finally {
        state.end(row.host);
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    if (failure !== undefined) throw failure;
    const progress = state.progress(true);
    options.onProgress?.(progress);
    const stoppedBy: StopReason = options.signal?.aborted
      ? 'aborted'
      : state.fetched >= options.maxPages
        ? 'max-pages'
        : 'frontier-empty';
    return {
      outDir: options.outDir,
      pagesFile: join(options.outDir, PAGES_FILE),
      storeFile: join(options.outDir, STORE_FILE),
      resumed: session.resumed,
      requeued: session.requeued,
      fetched: state.fetched,
      fetchedThisRun: state.fetchedThisRun,
      robotsDenied: state.robotsDenied,
      errors: state.errors,
      judged: state.judged,
      relevant: state.relevant,
      harvest: progress.harvest,
      queued: progress.queued,
      stoppedBy,
      elapsedMs: progress.elapsedMs,
    };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await warc?.close();
    await fetcher.close();
    jsonl.close();
    store.close();
  }
}

/** The crawl's WARC output, trimmed to what the store holds (a killed run's tail goes). */
function openWarc(options: CrawlOptions, seeds: readonly string[], store: CrawlStore): WarcWriter {
  const shown = seeds.slice(0, 10).map((seed) => seed.slice(0, 2000));
  return WarcWriter.open(
    {
      outDir: options.outDir,
      maxFileBytes: options.warc!.maxFileBytes,
      info: {
        software: 'LinkScent companion (focused crawler)',
        format: 'WARC File Format 1.1',
        conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
        'http-header-user-agent': options.fetch.userAgent,
        robots: 'obey',
        isPartOf: basename(options.outDir),
        description: `LinkScent ${options.strategy.name} crawl from ${shown.join(' ')}${seeds.length > shown.length ? ` and ${seeds.length - shown.length} more seeds` : ''}`,
      },
    },
    store.extras.warcExtents(),
  );
}
