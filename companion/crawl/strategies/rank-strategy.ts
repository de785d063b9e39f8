/**
 * `ipagerank` and `pagerank`: seed 003's link-analysis priorities (李盛韬 et al., SkyReach).
 *
 *   ipagerank   IPR(A) = (1 − d) + d · Σ_i RW(url_Ti) · IPR(T_i) / k_i    (§3.6.4, formula 3)
 *   pagerank    PR(A)  = (1 − d) + d · Σ_i PR(T_i) / C(T_i)                (§3.6.3, formula 2)
 *
 * over the graph the crawl has seen so far: every fetched page with all its links (followed or
 * not), every discovered URL a node. RW is the link's RW relevance (`rw-relevance.ts`); pagerank
 * is the seed's own baseline, every link weight 1. d = 0.85, as in the seed.
 *
 * The ranks are kept up to date incrementally (`incremental-pagerank.ts`): a fetched page's links
 * push the rank they carry through the graph, not a recomputation from scratch. A new link is
 * queued with its target's rank at that moment; targets already queued whose rank moved get it
 * through `refresh` every `every` pages, written in one transaction by the crawl loop, as online
 * learning re-scores the frontier's head (`crawl/online-learning.ts`).
 *
 *   priority = x / (1 + x),   x the (I)PageRank
 * a monotone map of x ≥ 0 into [0, 1), so order is the rank's and seeds (score 1) go first.
 *
 * A resumed crawl starts a new graph: the ranks are held in memory, and a resume ranks the pages
 * it fetches from then on while queued URLs keep the scores they were stored with.
 */
import { FOCUSED_CLAIM_WINDOW, type CrawlStrategy } from './crawl-strategy.ts';
import { IncrementalPageRank, type PageRankOptions } from './incremental-pagerank.ts';
import type { RwRelevance } from './rw-relevance.ts';
import { rwFingerprint } from './rw-strategy.ts';

/** Pages between two writes of moved ranks to the frontier. */
export const DEFAULT_RANK_EVERY = 25;

export interface RankStrategyOptions extends PageRankOptions {
  /** Pages between two refreshes of queued URLs' scores (≥ 1). Default 25. */
  every?: number;
}

/** x / (1 + x): the rank as a priority in [0, 1). */
export const rankPriority = (x: number): number => x / (1 + x);

export function createIPageRankStrategy(relevance: RwRelevance, options: RankStrategyOptions = {}): CrawlStrategy {
  return rankStrategy('ipagerank', (anchor) => relevance.of(anchor), rwFingerprint(relevance), options);
}

export function createPageRankStrategy(options: RankStrategyOptions = {}): CrawlStrategy {
  return rankStrategy('pagerank', () => 1, undefined, options);
}

function rankStrategy(name: string, weight: (anchor: string) => number, fingerprint: string | undefined, { every = DEFAULT_RANK_EVERY, ...rank }: RankStrategyOptions): CrawlStrategy {
  if (!Number.isInteger(every) || every < 1) throw new RangeError(`${name}: every must be a whole number ≥ 1, got ${every}`);
  const graph = new IncrementalPageRank(rank);
  let pagesSinceRefresh = 0;
  return {
    name,
    seedScore: 1,
    claimWindow: FOCUSED_CLAIM_WINDOW,
    fingerprint: JSON.stringify({ d: graph.damping, rw: fingerprint ?? null }),
    scoreLinks(parent, links) {
      pagesSinceRefresh++;
      // A page linking to itself votes for nothing (Brin & Page count links to other pages).
      graph.setLinks(
        parent.url,
        links.filter((link) => link.url !== parent.url).map((link) => ({ to: link.url, weight: weight(link.anchor) })),
      );
      return links.map((link) => rankPriority(graph.rank(link.url)));
    },
    refresh() {
      if (pagesSinceRefresh < every) return undefined;
      pagesSinceRefresh = 0;
      // Fetched pages are no longer queued; only the frontier's ranks matter.
      return graph
        .drainChanged()
        .filter((url) => !graph.hasLinks(url))
        .map((url) => ({ url, score: rankPriority(graph.rank(url)) }));
    },
  };
}
