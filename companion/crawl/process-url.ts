/**
 * One URL's life in the crawl, from claim to record, with the hook points in the order
 * `crawl-hooks.ts` states. The page's record, its frontier row and its children are written in
 * one transaction, and only once that is on disk is the line appended and `pageStored` called,
 * beside the worker, which goes on to its next URL meanwhile (`page-reports.ts`).
 *
 * Once the run's stop signal has aborted (the caller's abort, or maxPages recorded), nothing
 * more is recorded: the URL, wherever it was (robots.txt, a politeness wait, the fetch, parsing),
 * goes back to the queue for a resume.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import { hostOf } from '../../shared/urls/normalize-url.ts';
import type { FetchedPage, RobotsAccess } from '../fetch/types.ts';
import type { PageToParse, ParsedPage } from '../parse/parse-page.ts';
import type { CompiledLinkRules } from './link-rules.ts';
import type { Frontier, MaybePromise } from './frontier.ts';
import type { FrontierEntry, FrontierRow, PageExtras, PageRecord, StoredText } from '../store/records.ts';
import { serializePage } from '../warc/warc-records.ts';
import type { WarcWriter } from '../warc/warc-writer.ts';
import { errorLine, reactionTo, SkipUrlError, StopCrawlError } from './crawl-errors.ts';
import { runHooks, type UrlTask } from './crawl-hooks.ts';
import type { CrawlOptions } from './crawl-options.ts';
import type { CrawlState } from './crawl-state.ts';
import type { ParentPage } from './strategies/crawl-strategy.ts';
import { fetchWithRetries } from './fetch-with-retries.ts';
import { frontierEntries, linksToFollow, type FollowRules } from './follow-links.ts';
import type { PageReports } from './page-reports.ts';
import type { PagesJsonl } from './pages-jsonl.ts';
import { judgePage } from './page-judgement.ts';
import { storedText } from './page-text-record.ts';
import type { CrawlFetcher } from './types.ts';

export interface UrlContext {
  options: CrawlOptions;
  /** The run's stop: the caller's abort, or maxPages recorded (`crawler.ts`). */
  signal: AbortSignal;
  /** Stops the run: maxPages pages are recorded. */
  stop(): void;
  /** Where the URL came from and is settled (`frontier.ts`). */
  frontier: Frontier;
  /**
   * Resolves when every page this process recorded so far survives a power cut: the crawl
   * store's group commit (`CrawlStore.durable`). A page is reported only after it.
   */
  durable(): Promise<void>;
  jsonl: PagesJsonl;
  state: CrawlState;
  fetcher: CrawlFetcher;
  /** The crawl's WARC files, when it writes them (`crawl --warc`). */
  warc?: WarcWriter;
  /** The crawl's fixed link rules (traps, scope): applied where each page is parsed (`link-rules.ts`). */
  linkRules: CompiledLinkRules;
  /** How far below its score a URL of the host is queued (`host-budget.ts`; 0 without one). */
  hostPenalty(host: string): number;
  /**
   * A page parsed (its segments, its link contexts, its followable hosts): by a parse thread
   * (`parse/parse-pool.ts`), or on the event loop when the crawl has none.
   */
  parse(job: PageToParse): MaybePromise<ParsedPage>;
  /** Called after each page's transaction, before its pageStored hooks (host budget, online learning). */
  recorded?(record: PageRecord): void;
  /** Where recorded pages wait for the disk before their line and hooks (`page-reports.ts`). */
  reports: PageReports;
}

/** Handles a claimed URL. Throws only when the crawl must stop (`reactionTo` → stop-crawl). */
export async function processUrl(ctx: UrlContext, row: FrontierRow): Promise<void> {
  const task: UrlTask = { url: row.url, depth: row.depth, score: row.score, parent: row.parent };
  if (row.context) task.context = row.context;
  const { signal } = ctx;
  if (row.claimRank !== undefined) task.rank = row.claimRank;
  const logOdds = row.context && row.parent !== null ? ctx.options.strategy.linkLogOdds?.({ url: row.url, pageUrl: row.parent, ...row.context }) : undefined;
  if (logOdds !== undefined && Number.isFinite(logOdds)) task.logOdds = logOdds;
  let fetched: FetchedPage | undefined;
  let attempts = 1;
  /**
   * Records the page (its WARC records first) and starts its report (its line once on disk, then
   * its pageStored hooks) beside this worker; false when the run stopped first. Nothing after the
   * commit throws (`PageReports.add` never rejects: a report's failure stops the crawl there), so
   * whatever the `catch` below sees was thrown before the page was recorded.
   */
  const record = async (page: PageRecord, children: FrontierEntry[], text?: StoredText): Promise<boolean> => {
    const committed = await commitFetched(ctx, page, children, fetched, text);
    if (!committed) return false;
    await ctx.reports.add(() => reportAndStore(ctx, committed, task.url));
    return true;
  };
  try {
    if (!(await runHooks(ctx.options.hooks, 'beforeFetch', task))) throw new SkipUrlError('skipped by a beforeFetch hook');
    const access = await ctx.fetcher.robotsAccess(task.url, signal);
    if (access !== 'allowed') {
      if (access !== 'denied' && access.transient && ctx.state.deferHost(row.host, access.unreachableUntil, ctx.options.retry.retries, access.reason)) {
        // robots.txt unreachable: the host is set aside until it is asked again; the URL was
        // never tried, so it stays queued rather than being lost to a passing outage.
        await ctx.frontier.requeue(task.url);
        return;
      }
      if (!(await record(baseRecord(task, notAllowed(access, ctx.options.retry.retries + 1)), []))) await ctx.frontier.requeue(task.url);
      return;
    }
    const attempted = await fetchWithRetries(ctx.fetcher, task.url, row.host, ctx.options.retry, signal);
    fetched = attempted.fetched;
    attempts = attempted.attempts;
    await ctx.options.turn?.(); // parsing, scoring and the commit: one turn (`crawl-options.ts`)
    if (signal.aborted) {
      // Stopped mid-fetch: the page was never recorded, so it stays to be fetched.
      await ctx.frontier.requeue(task.url);
      return;
    }
    await runHooks(ctx.options.hooks, 'afterFetch', fetched, task);
    const { record: page, children, text } = await parseAndScore(ctx, task, fetched, attempts);
    if (!(await record(page, children, text))) await ctx.frontier.requeue(task.url);
  } catch (error) {
    if (signal.aborted) {
      // fetchPage and the waits reject with the stop's reason: not the page's failure, so keep it queued.
      await ctx.frontier.requeue(task.url);
      return;
    }
    const reaction = reactionTo(error);
    if (reaction === 'stop-crawl') {
      await ctx.frontier.requeue(task.url);
      throw error;
    }
    if (reaction === 'skip-url') {
      await ctx.frontier.drop(task.url, (error as Error).message);
    } else {
      const page = fetched ? fetchedRecord(task, fetched, attempts) : baseRecord(task, {});
      const committed = await commitFetched(ctx, { ...page, outcome: 'error', error: errorLine(error) }, [], undefined, undefined);
      if (!committed) {
        await ctx.frontier.requeue(task.url);
        return;
      }
      await ctx.reports.add(() => reportAndStore(ctx, committed, task.url));
    }
  }
}

/**
 * The outcome and error of a URL robots.txt did not let through, after `asked` questions. A host
 * that gave no answer at all is unreachable, as a fetch of the page would have found: recorded
 * with that failure (status 0), not as a robots.txt refusal. One the address rule refused was
 * never asked anything: the rule's reason is the whole story.
 */
function notAllowed(access: Exclude<RobotsAccess, 'allowed'>, asked: number): Pick<PageRecord, 'outcome' | 'error'> {
  if (access === 'denied') return { outcome: 'robots-denied', error: 'disallowed by robots.txt' };
  const { noAnswer } = access;
  if (noAnswer?.outcome === 'address-denied') return { outcome: noAnswer.outcome, error: noAnswer.message };
  const error = access.transient ? `${access.reason} (asked ${asked === 1 ? 'once' : `${asked} times`})` : access.reason;
  return { outcome: noAnswer?.outcome ?? 'robots-denied', error };
}

/** Parses an HTML page, scores its links, judges it; a non-HTML outcome is recorded as is. */
async function parseAndScore(
  ctx: UrlContext,
  task: UrlTask,
  fetched: FetchedPage,
  attempts: number,
): Promise<{ record: PageRecord; children: FrontierEntry[]; text?: StoredText }> {
  const record = fetchedRecord(task, fetched, attempts);
  // The body undecoded when the fetcher kept it so (`fetch/html-bytes.ts`): read `html` here and
  // the event loop would decode it.
  const html = fetched.outcome === 'ok' ? (fetched.body ?? fetched.html) : undefined;
  if (html === undefined) return { record, children: [] };

  const { options, state } = ctx;
  const window = options.strategy.contextWindow ?? options.window;
  const parsing = ctx.parse({ html, pageUrl: fetched.finalUrl, window, links: { askedUrl: task.url, rules: ctx.linkRules } });
  const { page, contexts, hosts } = parsing instanceof Promise ? await parsing : parsing;
  if (!hosts) throw new Error('the parse gave no followable hosts'); // asked for with `links`, always given
  const parsed = { task, fetched, page, contexts };
  await runHooks(options.hooks, 'afterParse', parsed);

  // Judged before its links are scored: exploit/explore scores them by the page's judgement.
  const relevance = await judgePage(options, task, fetched.finalUrl, page);
  if (relevance !== undefined) record.relevance = relevance;
  const onTopic = relevance === undefined ? undefined : relevance >= options.relevanceThreshold;
  const rules: FollowRules = {
    maxDepth: options.maxDepth,
    hostOpen: (host) => state.hostOpen(host),
    hostPenalty: ctx.hostPenalty,
    strategyName: options.strategy.name,
    // Every strategy keeps them: a re-scoring strategy scores from them, and `linkscent why`
    // shows any crawl's best link into a URL.
    keepContexts: true,
    onTopic,
  };
  const followed = linksToFollow(task, hosts, rules);
  const { scores, queued } = scoreLinks(ctx, { url: fetched.finalUrl, page, depth: task.depth, score: task.score, onTopic }, contexts, followed);
  const children = frontierEntries(task, fetched.finalUrl, contexts, scores, queued, rules, hosts);
  await runHooks(options.hooks, 'linksScored', { ...parsed, scores, followed });
  if (page.robots.noindex) record.noindex = true;
  return { record, children, ...(options.storeText ? { text: storedText(page) } : {}) };
}

/**
 * The strategy's scores of the page's links, and which links to queue. A strategy whose links
 * score alone is asked only about the followed links that can still change the frontier: not
 * those to pages already fetched or dropped (`Frontier.settled`), whose rows an enqueue leaves
 * as they are; the others get NaN, which nothing reads. Every link is scored, and every followed
 * one queued, when a linksScored hook will look at the scores.
 */
function scoreLinks(ctx: UrlContext, parent: ParentPage, contexts: readonly LinkContext[], followed: readonly boolean[]): { scores: number[]; queued: readonly boolean[] } {
  const { strategy, hooks } = ctx.options;
  if (!strategy.scoresLinksAlone || hooks.some((set) => set.linksScored)) return { scores: strategy.scoreLinks(parent, contexts), queued: followed };
  const settled = ctx.frontier.settled?.([...new Set(contexts.filter((_, i) => followed[i]).map(({ url }) => url))]);
  const queued = settled?.size ? followed.map((follow, i) => follow && !settled.has(contexts[i]!.url)) : followed;
  const asked = contexts.filter((_, i) => queued[i]);
  const answers = asked.length > 0 ? strategy.scoreLinks(parent, asked) : [];
  if (answers.length !== asked.length) throw new Error(`strategy ${strategy.name} gave ${answers.length} scores for ${asked.length} links`);
  let next = 0;
  return { scores: queued.map((queue) => (queue ? answers[next++]! : Number.NaN)), queued };
}

/**
 * A fetched page's commit: with WARC output, its records are written first and the transaction
 * runs once they are on disk (`warc-writer.ts`); the exchange is kept for a page read in full,
 * any other page gets its metadata record alone.
 */
async function commitFetched(ctx: UrlContext, record: PageRecord, children: FrontierEntry[], fetched: FetchedPage | undefined, text: StoredText | undefined): Promise<Committed | undefined> {
  const extras: PageExtras = text ? { text } : {};
  if (!ctx.warc) return commit(ctx, record, children, extras);
  if (ctx.signal.aborted) return undefined;
  const serialized = await serializePage(withRankLast(record), record.outcome === 'ok' ? fetched?.raw : undefined);
  // WARC output runs with the store's own frontier only (`crawl-options.ts`), whose commit is synchronous.
  return ctx.warc.append(serialized, (warc) => commit(ctx, record, children, { ...extras, warc }) as Committed | undefined);
}

/** The record with `rank` and `logOdds` as its last keys, as the store gives it back (pages.jsonl lines alike). */
function withRankLast(record: PageRecord): PageRecord {
  if (record.rank === undefined && record.logOdds === undefined) return record;
  const { rank, logOdds, ...rest } = record;
  return { ...rest, ...(rank !== undefined ? { rank } : {}), ...(logOdds !== undefined ? { logOdds } : {}) };
}

/** A page a frontier that records durably gave back: on disk already. */
const ON_DISK = Promise.resolve();

/** A page whose transaction committed, and the promise of its being on disk. */
interface Committed {
  record: PageRecord;
  /** `CrawlStore.durable()`, asked for as the transaction committed. */
  onDisk: Promise<void>;
}

/**
 * The page recorded through the frontier (the store's one transaction; on a shared frontier that
 * transaction, synced, then a script in Redis), then counted. Undefined, and nothing written,
 * once the run has stopped: a page finished by a worker the stop did not reach in time must not
 * go past maxPages.
 */
function commit(ctx: UrlContext, record: PageRecord, children: FrontierEntry[], extras: PageExtras = {}): MaybePromise<Committed | undefined> {
  if (ctx.signal.aborted) return undefined;
  const recorded = ctx.frontier.record(withRankLast(record), children, extras);
  // A shared frontier answers later: its page is counted then (or not at all, when another
  // worker recorded the URL first, or the crawl's budget was spent: then this worker stops).
  if (!(recorded instanceof Promise)) return recorded && counted(ctx, recorded);
  return recorded.then((stored) => {
    if (stored === undefined) {
      if (ctx.frontier.budgetSpent?.()) ctx.stop();
      return undefined;
    }
    return counted(ctx, stored);
  });
}

/**
 * A page just recorded: its sync to disk asked for (unless the frontier synced it already) and
 * the counters, in one synchronous step after the commit, so the budget counts it at once and
 * pages are reported in commit order (the syncs resolve their waiters in the order they asked).
 * The page that reaches maxPages stops the run.
 */
function counted(ctx: UrlContext, stored: PageRecord): Committed {
  const onDisk = ctx.frontier.recordsDurably ? ON_DISK : ctx.durable();
  onDisk.catch(() => {}); // `reportAndStore` takes the failure; it must not count as unhandled before then
  ctx.state.settled(stored, hostOf(stored.url));
  ctx.recorded?.(stored);
  if (!ctx.state.budgetLeft || ctx.frontier.budgetSpent?.()) ctx.stop();
  return { record: stored, onDisk };
}

/**
 * A committed page's report (`page-reports.ts`): once on disk (the fsync shared with the pages
 * committed meanwhile), its line in pages.jsonl and the progress line, then its pageStored hooks.
 * Rejects, stopping the crawl, when the sync fails (what it fetched can no longer be kept) or a
 * hook asks to stop; any other hook failure is logged and the crawl goes on.
 */
async function reportAndStore(ctx: UrlContext, { record, onDisk }: Committed, url: string): Promise<void> {
  try {
    await onDisk;
  } catch (error) {
    throw new StopCrawlError(`the crawl store could not be synced to disk: ${errorLine(error)}`, { cause: error });
  }
  ctx.jsonl.append(record);
  ctx.options.onProgress?.(ctx.state.progress(false));
  try {
    await runHooks(ctx.options.hooks, 'pageStored', record);
  } catch (error) {
    if (reactionTo(error) === 'stop-crawl') throw error;
    ctx.options.log(`crawl: a pageStored hook failed for ${url}: ${errorLine(error)}`);
  }
}

function baseRecord(task: UrlTask, extra: Partial<PageRecord>): PageRecord {
  return {
    url: task.url,
    finalUrl: task.url,
    status: 0,
    depth: task.depth,
    parent: task.parent,
    score: task.score,
    ...(task.rank !== undefined ? { rank: task.rank } : {}),
    ...(task.logOdds !== undefined ? { logOdds: task.logOdds } : {}),
    fetchedAt: new Date().toISOString(),
    bytes: 0,
    contentType: '',
    outcome: 'error',
    ...extra,
  };
}

/** The record of a fetch's final outcome; `attempts` only when it took more than one. */
function fetchedRecord(task: UrlTask, fetched: FetchedPage, attempts: number): PageRecord {
  const record = baseRecord(task, {
    finalUrl: fetched.finalUrl,
    status: fetched.status,
    bytes: fetched.bytes,
    contentType: fetched.contentType,
    outcome: fetched.outcome,
  });
  if (fetched.error !== undefined) record.error = fetched.error;
  if (attempts > 1) record.attempts = attempts;
  return record;
}
