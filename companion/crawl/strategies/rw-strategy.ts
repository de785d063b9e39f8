/**
 * `rw`: seed 003's extended-metadata method alone (李盛韬 et al., SkyReach, §3.6.2): a link's
 * priority is its RW relevance (`rw-relevance.ts`), the mean similarity of its anchor words to
 * the topic's terms, by synonym list or by co-occurrence in the topic's samples. The seed prunes
 * links below the threshold c ("低预测值被抛弃"); here they score 0 and wait at the back of the
 * frontier instead, so a crawl never runs dry while unrelated links remain (DESIGN.md, "crawls
 * that do not stall"). RW lies in [0, 1]; seeds score 1.
 */
import { FOCUSED_CLAIM_WINDOW, type CrawlStrategy } from './crawl-strategy.ts';
import type { RwRelevance } from './rw-relevance.ts';

export function createRwStrategy(relevance: RwRelevance): CrawlStrategy {
  return {
    name: 'rw',
    seedScore: 1,
    claimWindow: FOCUSED_CLAIM_WINDOW,
    fingerprint: rwFingerprint(relevance),
    scoreLinks: (_parent, links) => links.map((link) => relevance.of(link.anchor)),
    scoresLinksAlone: true,
  };
}

/** What RW scores depend on: the similarity source, c, the topic's terms and related words. */
export function rwFingerprint(relevance: RwRelevance): string {
  const related = [...relevance.related].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return JSON.stringify({ source: relevance.source, c: relevance.threshold, related });
}
