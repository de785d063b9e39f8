/**
 * The crawl loop: `runCrawl(options)` fetches in priority order (higher score sooner) until
 * maxPages pages are recorded, the frontier runs dry (or holds only URLs of hosts set aside), or
 * `signal` aborts.
 *
 * Data flow, one URL at a time per worker (`concurrency` workers):
 *   1. claim the best queued URL whose host has a free slot, within the strategy's claim window,
 *      from the `Frontier` (`frontier.ts`): the store's SQLite index walk with `CrawlState.decide`,
 *      or, with `--frontier redis://…`, one Lua script shared by every crawl process
 *   2. beforeFetch hooks → robots.txt → host politeness slot (delay, Crawl-delay) → fetch; a
 *      transient failure is fetched again, through the host's slot, after a backoff or its
 *      Retry-After (`fetch-with-retries.ts`, `fetch/retry-policy.ts`)
 *   3. afterFetch hooks → segments → link contexts → afterParse → strategy scores → linksScored
 *   4. one transaction: page row + URL done + children upserted (max score)
 *      → host budget (`host-budget.ts`) and, every N pages, online learning
 *      (`online-learning.ts`: both classifiers updated, the frontier's head re-scored) or the
 *      strategy's own re-ranking (`CrawlStrategy.refresh`: ipagerank's moved ranks)
 *      → once on disk, pages.jsonl line → progress → pageStored hooks, beside the worker, which
 *      claims its next URL meanwhile (`page-reports.ts`)
 * A page's failure is recorded on its row and the crawl goes on (`crawl-errors.ts` decides).
 *
 * How a run ends. The run has one stop signal, aborted by the caller's `signal` (Ctrl-C, a
 * pause) or by the page that completes maxPages. Whatever is in flight then is abandoned: its
 * fetch, robots.txt question or politeness wait is aborted, nothing more is recorded, and its
 * URL goes back to the queue for a resume. Workers claim while fewer than maxPages pages are
 * recorded, not counting the ones in flight: near the end an idle worker fetches ahead rather
 * than wait on a stalled page (30 s, retried twice), so the run ends when maxPages pages are done
 * and abandons at most concurrency − 1 fetches. When the only URLs left are on hosts set aside
 * (robots.txt unreachable), the run ends too (`hosts-unreachable`) instead of waiting for them
 * to be asked again, and says so in one line: they stay queued, and a resume asks again.
 *
 * On a shared frontier a process with nothing to claim and nothing in flight does not end while
 * other processes hold leased URLs or URLs are queued (their pages may queue more, their dead
 * leases come back): it asks again every `frontier.pollMs`. maxPages counts every process's
 * pages, and the page that reaches it stops each process at its next claim or commit.
 */
import { acquireParsePool } from '../parse/parse-pool.ts';
import { parsePage } from '../parse/parse-page.ts';
import type { CrawlOptions, CrawlOptionsInput } from './crawl-options.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import { validateCrawlOptions } from './crawl-options.ts';
import { openSession, validSeeds, type CrawlSession } from './crawl-session.ts';
import { CrawlState } from './crawl-state.ts';
import { PAGES_FILE } from './pages-jsonl.ts';
import { PageReports } from './page-reports.ts';
import { processUrl, type UrlContext } from './process-url.ts';
import { basename, join } from 'node:path';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import { STORE_FILE } from '../store/crawl-store.ts';
import { wasRequested, type FrontierRow } from '../store/records.ts';
import { HostBudget } from './host-budget.ts';
import { OnlineLearner } from './online-learning.ts';
import { DEFAULT_CLAIM_WINDOW } from './strategies/crawl-strategy.ts';
import { BudgetReached } from './crawl-errors.ts';
import { WarcWriter } from '../warc/warc-writer.ts';

/**
 * Page reports that may wait for the disk (`PageReports`'s limit) per worker beyond the first: a
 * worker about to wait commits the open batch of writes (`store/write-batch.ts`), so this limit,
 * not the batch's own bounds (16 pages, 10 ms), set a batch's size. At one per worker, the crawl
 * bench's nb crawl (2,000 pages, concurrency 8) committed every 3–4 pages (533–629 commits, each
 * writing the frontier's index pages to the WAL again, 151–161 ms of COMMIT in all); at four,
 * every 10 (199–205 commits, 127–133 ms). A lone worker keeps one: its pages' pageStored hooks stay
 * in step with its fetches, each page's before the next page's beforeFetch.
 * What waits is a page record and its promise: a few dozen are nothing beside the pages in flight.
 */
export const REPORTS_PER_WORKER = 4;

/**
 * Why a run ended: maxPages recorded; nothing left to fetch; nothing left but URLs of hosts set
 * aside because their robots.txt could not be fetched (`setAside` says which); the caller's abort.
 */
export type StopReason = 'max-pages' | 'frontier-empty' | 'hosts-unreachable' | 'aborted';

/** A host set aside at the end of a run, and how many of its URLs stay queued. */
export interface SetAsideHost {
  host: string;
  /** Why its robots.txt could not be fetched. */
  reason: string;
  queued: number;
}

export interface CrawlSummary {
  outDir: string;
  pagesFile: string;
  storeFile: string;
  resumed: boolean;
  /** URLs a killed earlier run had in flight, queued again by this run. */
  requeued: number;
  /** Pages fetched over the whole crawl, and by this run (URLs robots.txt or the address rule refused not counted). */
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
  /** With `hosts-unreachable`: the hosts whose URLs were left queued. */
  setAside?: SetAsideHost[];
  elapsedMs: number;
}

export async function runCrawl(input: CrawlOptionsInput): Promise<CrawlSummary> {
  const options = validateCrawlOptions(input);
  const session = await openSession(options, validSeeds(options));
  try {
    return await run(options, session);
  } finally {
    await session.close();
  }
}

/** One run over an open session: the workers, then the summary. */
async function run(options: CrawlOptions, session: CrawlSession): Promise<CrawlSummary> {
  const { store, frontier, jsonl, network } = session;
  const { fetcher, linkRules } = network;
  const state = new CrawlState(store, options, frontier);
  // The seed check's failed robots.txt questions were this crawl's first (see seed-check.ts).
  for (const { host, until, reason } of session.seedRobotsFailures) state.countSeedVerdict(host, until, reason);
  const claimWindow = options.strategy.claimWindow ?? DEFAULT_CLAIM_WINDOW;
  // A shared frontier keeps the host budget itself, with every worker's pages (`lua-scripts.ts`,
  // COMMIT), and lowers the scores it queues: this process adds no penalty of its own.
  const budget = options.hostBudget === null || frontier.kind !== 'sqlite' ? undefined : new HostBudget(store, options.hostBudget, options.relevanceThreshold);
  const hostPenalty = (host: string) => budget?.penalty(host) ?? 0;
  // On a shared frontier the workers learn into one model (`shared-learning.ts`), made from the
  // models as loaded: before the learner, which would otherwise replay this store's examples.
  const shared = options.online && frontier.shareLearning ? await frontier.shareLearning(options.online.models, store, options.strategy.fingerprint ?? null) : undefined;
  const learner = options.online
    ? new OnlineLearner(store, options.strategy, options.online.models, { ...options.online, relevanceThreshold: options.relevanceThreshold, turn: options.turn, ...(shared ? { shared } : {}) }, hostPenalty)
    : undefined;
  await learner?.start();
  // A WARC file that cannot be opened fails the run here; the session's close frees the rest.
  const warc = options.warc ? openWarc(options, session.seeds, store) : undefined;
  const parsing = options.parseThreads > 0 ? acquireParsePool(options.parseThreads, options.log) : undefined;
  // The run's one stop: the caller's abort, or the page that completes maxPages (`commit`).
  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  stop.signal.addEventListener('abort', () => state.wake(), { once: true });
  let failure: unknown;
  // A page's report (its line once on disk, its pageStored hooks) runs beside its worker; one that
  // fails stops the run as a failing page does.
  const reports = new PageReports(
    1 + (options.concurrency - 1) * REPORTS_PER_WORKER,
    (error) => {
      failure ??= error;
      state.wake();
    },
    // A worker about to wait for reports that wait for the open batch of writes: commit it now
    // rather than at the end of its window (`store/write-batch.ts`).
    () => store.commitWrites(),
  );
  const ctx: UrlContext = {
    options,
    signal: stop.signal,
    stop: () => stop.abort(new BudgetReached(options.maxPages)),
    linkRules,
    frontier,
    durable: () => store.durable(),
    parse: parsing?.parse ?? parsePage,
    jsonl,
    state,
    fetcher,
    warc,
    hostPenalty,
    recorded(record) {
      if (!wasRequested(record.outcome)) return;
      budget?.settled(hostOf(record.url), record.relevance === undefined ? undefined : record.relevance >= options.relevanceThreshold);
      learner?.pageRecorded();
      const moved = options.strategy.refresh?.();
      if (moved?.length) store.setScores(moved.map(({ url, score }) => ({ url, score: score - hostPenalty(hostOf(url)) })));
    },
    reports,
  };
  /** Hosts set aside when the run found nothing else to do (see the file header). */
  let setAsideAtEnd: string[] | undefined;

  async function worker(): Promise<void> {
    while (!stop.signal.aborted && failure === undefined) {
      if (options.turn) await options.turn();
      failure ??= learner?.failure; // a background update (with turns, or shared) that failed stops the run
      if (stop.signal.aborted || failure !== undefined) break;
      const now = Date.now(); // one clock for what is set aside and for how long to wait (CrawlState.deferredHosts)
      const setAside = state.deferredHosts(now);
      let row: FrontierRow | undefined;
      let othersActive = false;
      try {
        // Awaited only when it is a promise: see `frontier.ts` (MaybePromise) for why.
        const claimed = state.budgetLeft ? frontier.claim(state.decide, claimWindow, setAside) : undefined;
        row = claimed instanceof Promise ? await claimed : claimed;
        if (!row && state.inFlight === 0 && frontier.activeElsewhere && !stop.signal.aborted && !frontier.budgetSpent?.()) othersActive = await frontier.activeElsewhere(setAside);
      } catch (error) {
        // A frontier that fails (a shared one's Redis gone) stops the run once the other workers'
        // pages in flight are settled, as a failing page does.
        failure ??= error;
        state.wake();
        return;
      }
      if (!row) {
        if (frontier.budgetSpent?.()) {
          stop.abort(new BudgetReached(options.maxPages));
          return;
        }
        if (othersActive) {
          // Other processes hold URLs or pages that may queue more: ask again soon.
          await state.changed(Math.min(state.nextDeferralEnd(now) ?? Infinity, Date.now() + frontier.pollMs!));
          continue;
        }
        if (state.inFlight === 0) {
          // Nothing claimable and nothing coming. Queued URLs of hosts set aside would only come
          // back after robots.txt is asked again, minutes away: end, and leave them queued.
          if (state.budgetLeft && setAside.length > 0) setAsideAtEnd ??= setAside;
          state.wake(); // everyone stops
          return;
        }
        // A worker ending its task claims again itself and, when that succeeds, wakes one
        // waiter (below): claims cascade while they succeed, and one walk fails per page.
        // A shared frontier's URLs are freed by other processes too, which wake no one here.
        const deferralEnd = state.nextDeferralEnd(now);
        await state.changed(frontier.pollMs === undefined ? deferralEnd : Math.min(deferralEnd ?? Infinity, Date.now() + frontier.pollMs));
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
    store.commitWrites(); // the last pages' reports wait for it
    await reports.drain();
    await learner?.idle();
    failure ??= learner?.failure;
    if (failure !== undefined) throw failure;
    const progress = state.progress(true);
    options.onProgress?.(progress);
    // Hosts set aside with URLs still queued (a host's last URL may have been settled meanwhile).
    const leftAside = setAsideAtEnd ? (await setAsideHosts(setAsideAtEnd)).filter((host) => host.queued > 0) : [];
    const stoppedBy: StopReason = options.signal?.aborted
      ? 'aborted'
      : state.fetched >= options.maxPages || frontier.budgetSpent?.()
        ? 'max-pages'
        : leftAside.length > 0
          ? 'hosts-unreachable'
          : 'frontier-empty';
    const setAside = stoppedBy === 'hosts-unreachable' ? leftAside : undefined;
    if (setAside) options.log(setAsideLine(setAside));
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
      ...(setAside ? { setAside } : {}),
      elapsedMs: progress.elapsedMs,
    };
  } finally {
    options.signal?.removeEventListener('abort', onCallerAbort);
    commitQuietly(store); // a failed run's recorded pages too: a resume must not fetch them again
    await reports.drain(); // their lines before pages.jsonl closes
    await learner?.idle(); // its transaction before the store closes
    await warc?.close();
    await parsing?.release();
  }

  async function setAsideHosts(hosts: string[]): Promise<SetAsideHost[]> {
    const queued = await frontier.queuedByHost(hosts);
    return hosts.map((host) => ({ host, reason: state.deferralReason(host) ?? 'robots.txt unreachable', queued: queued.get(host) ?? 0 }));
  }
}

/**
 * The open batch of writes committed as a run ends, whatever ended it. A failure here is the
 * batch's pages' reports' failure (they reject with it), which the run reports; not thrown twice.
 */
function commitQuietly(store: CrawlStore): void {
  try {
    store.commitWrites();
  } catch {
    // given to the pages' reports, see above
  }
}

/** The one line a run ended by hosts set aside says (the CLI prints it, the service logs it). */
function setAsideLine(hosts: readonly SetAsideHost[]): string {
  const queued = hosts.reduce((n, host) => n + host.queued, 0);
  const which = hosts.map(({ host, reason }) => `${host} (${reason})`).join(', ');
  return `crawl: ${queued} URL(s) left queued on ${hosts.length} host(s) whose robots.txt could not be fetched: ${which}; --resume asks again`;
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
