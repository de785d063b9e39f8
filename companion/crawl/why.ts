/**
 * "Why was this next?" (issue 13): a URL of a crawl, explained from what the crawl stored: the
 * link that gave it its best score (the frontier row keeps the link's page, anchor and context),
 * the score it was claimed with and its rank then, its page when fetched, and, for an nb crawl,
 * the score taken apart (`CrawlStrategy.explain`): the stored link scored again with the crawl's
 * model as it last had it (the model file kept in meta `scoring`, plus the links online learning
 * added). The re-score can differ from the stored score: the model learned after the URL was
 * queued, and a host budget step may have moved the URL since; both figures are shown.
 *
 * The command line (`linkscent why`) and the service (`GET /api/crawls/:id/why`) both ask here.
 */
import type { ScoreParts, WhyReply } from '../../shared/service-api/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { normalizeUrl } from '../../shared/urls/normalize-url.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import type { FrontierRow } from '../store/records.ts';
import type { CrawlMeta } from './crawl-session.ts';
import { storedHostPenalty } from './host-budget.ts';
import { NB_DEFAULTS, nbCrawl, type NbScoring } from './nb-crawl.ts';
import { replayLearnedLinks } from './online-learning.ts';
import type { CrawlStrategy } from './strategies/crawl-strategy.ts';

/** Features shown with a score's parts. */
export const WHY_TOP_FEATURES = 10;

/** The URL is not one of the crawl's: one line naming it. */
export class UnknownUrlError extends Error {
  override readonly name = 'UnknownUrlError';
}

export interface WhyOptions {
  /** The jieba tokenizer (loaded only when an nb crawl's score is taken apart). */
  tokenizer: () => Promise<Tokenizer>;
  /** Another model file than the one the crawl kept (moved, or to compare). */
  modelFile?: string;
  /** The topic of `modelFile`, when it holds several. */
  topic?: string;
}

export async function explainUrl(store: CrawlStore, url: string, options: WhyOptions): Promise<WhyReply> {
  const found = store.frontierEntry(url) ?? store.frontierEntry(normalizeUrl(url.trim(), url.trim()) ?? url);
  if (!found) throw new UnknownUrlError(`${url.slice(0, 500)} is not a URL of this crawl (never found on its pages)`);
  const meta = store.getMeta<CrawlMeta>('crawl');
  const page = store.page(found.url);
  // A redirect's target is marked done under its own name, without a link: explain the URL
  // that was claimed and redirected here.
  const redirectedFrom = page && page.url !== found.url ? page.url : undefined;
  const row = (redirectedFrom !== undefined ? store.frontierEntry(redirectedFrom) : undefined) ?? found;
  const reply: WhyReply = {
    url: found.url,
    state: found.state,
    strategy: meta?.strategy ?? 'unknown',
    score: row.score,
    depth: row.depth,
    seed: row.parent === null,
    hostPenalty: storedHostPenalty(store, row.host),
  };
  if (found.reason !== null) reply.reason = found.reason;
  if (row.claimRank !== undefined) reply.rank = row.claimRank;
  if (redirectedFrom !== undefined) reply.redirectedFrom = redirectedFrom;
  if (row.parent !== null && row.context) reply.link = { parent: row.parent, ...row.context };
  if (page) {
    reply.page = { outcome: page.outcome, status: page.status, fetchedAt: page.fetchedAt };
    if (page.relevance !== undefined) reply.page.relevance = page.relevance;
  }
  const parts = await scoreParts(store, row, meta, options);
  if ('parts' in parts) reply.parts = parts.parts;
  else reply.partsNote = parts.note;
  return reply;
}

async function scoreParts(store: CrawlStore, row: FrontierRow, meta: CrawlMeta | undefined, options: WhyOptions): Promise<{ parts: ScoreParts } | { note: string }> {
  if (row.parent === null) return { note: 'a seed: seeds are fetched first, whatever their score' };
  if (meta?.strategy !== 'nb') return { note: `a ${meta?.strategy ?? 'crawl'} crawl has no model to take its scores apart (bfs scores −depth; best-first and best-first-extracted α(1+k)·sim(parent) + β·sim(anchor); lpe sim(block) or λ·sim(anchor) + (1−λ)·sim(context); docs/focused-crawl.md §9)` };
  if (!row.context) return { note: 'the crawl kept no link context for this URL (crawled before contexts were kept)' };
  const scoring = store.getMeta<NbScoring>('scoring');
  const modelFile = options.modelFile ?? scoring?.modelFile;
  if (modelFile === undefined) return { note: 'the crawl did not keep where its model file is (crawled before it did): give --model FILE' };
  const strategy = await crawlStrategy(store, modelFile, options.modelFile !== undefined ? options.topic : (options.topic ?? scoring?.topic), scoring, options);
  if ('note' in strategy) return strategy;
  const context = { url: row.url, pageUrl: row.parent, ...row.context };
  return { parts: strategy.strategy.explain!(context, row.viaOnTopic, WHY_TOP_FEATURES) };
}

/** The crawl's nb strategy, its models as the crawl last had them. */
async function crawlStrategy(store: CrawlStore, modelFile: string, topic: string | undefined, scoring: NbScoring | undefined, options: WhyOptions): Promise<{ strategy: CrawlStrategy } | { note: string }> {
  const { loadLinkScorer } = await import('../model/link-model-file.ts');
  let loaded;
  try {
    loaded = await loadLinkScorer(modelFile, await options.tokenizer(), topic);
  } catch (error) {
    return { note: `cannot take the score apart: ${(error as Error).message.split('\n')[0]}` };
  }
  if (scoring !== undefined && loaded.fingerprint !== scoring.fingerprint && options.modelFile === undefined) {
    return { note: `the model file ${modelFile} changed since the crawl used it; give the crawl's model with --model FILE` };
  }
  replayLearnedLinks(store, { links: loaded.scorer.model, levels: loaded.levels, features: (context) => loaded.scorer.featuresOf(context) });
  const { strategy } = nbCrawl(loaded, { ...NB_DEFAULTS, ...(scoring?.parts ?? {}) }, false, () => {});
  return { strategy };
}
