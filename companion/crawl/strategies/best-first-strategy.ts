/**
 * `best-first`: seed 004 (Ma 2018, eq. 5-4), best-first with link structure:
 *
 *     v = α·(1 + k)·sim(parent, topic) + β·sim(anchor, topic),   β = 1 − α
 *
 * k = 1 when the child shares the parent's URL structure (same host, and its path lies under
 * the parent's directory), ½ when it is only on the same host, else 0. α defaults to 0.6, the
 * thesis's best value. sim is the cosine of token counts (`term-vector.ts`), the topic given as
 * keywords or sample text. v lies in [0, 1 + α]; seeds score 1 + α so they go first.
 *
 * At a site's root the parent's directory is `/`, so every same-host link counts as sharing its
 * structure there; one level down (`/finance/`), only `/finance/…` does.
 */
import { pageText } from '../../../shared/segments/page-text.ts';
import type { PageSegments } from '../../../shared/segments/types.ts';
import type { Tokenizer } from '../../../shared/tokens/types.ts';
import { FOCUSED_CLAIM_WINDOW, type CrawlStrategy } from './crawl-strategy.ts';
import { cosine, termVector } from './term-vector.ts';

export interface BestFirstOptions {
  tokenizer: Tokenizer;
  /** Topic keywords or sample text. */
  topic: string;
  /** Weight of the parent's similarity, in [0, 1]. Default 0.6. */
  alpha?: number;
  /** The registry name it runs under. Default `best-first`. */
  name?: string;
  /** The parent page's words compared with the topic. Default `pageText`: every visible word. */
  parentText?: (page: PageSegments) => string[];
  /** Terms added to the topic's vector (a knowledge base's related terms), each counted once. */
  topicExpansion?: readonly string[];
}

export const DEFAULT_ALPHA = 0.6;

/** Seed 004's table 5-2: 1 same structure, ½ same host, 0 otherwise. */
export function structureFactor(parentUrl: string, childUrl: string): number {
  let parent: URL;
  let child: URL;
  try {
    parent = new URL(parentUrl);
    child = new URL(childUrl);
  } catch {
    return 0;
  }
  if (parent.host !== child.host) return 0;
  const directory = parent.pathname.slice(0, parent.pathname.lastIndexOf('/') + 1);
  return child.pathname.startsWith(directory) ? 1 : 0.5;
}

export function createBestFirstStrategy(options: BestFirstOptions): CrawlStrategy {
  const { tokenizer, topic, alpha = DEFAULT_ALPHA, name = 'best-first', parentText = pageText, topicExpansion = [] } = options;
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`${name}: alpha must lie in [0, 1], got ${alpha}`);
  const topicVector = termVector(tokenizer, topic, ...topicExpansion);
  if (topicVector.size === 0) throw new RangeError(`${name}: the topic text has no words`);
  const beta = 1 - alpha;
  return {
    name,
    seedScore: 1 + alpha,
    claimWindow: FOCUSED_CLAIM_WINDOW,
    fingerprint: JSON.stringify({ alpha, topic: [...topicVector.keys()].sort() }),
    scoresLinksAlone: true,
    scoreLinks(parent, links) {
      const parentSim = cosine(termVector(tokenizer, ...parentText(parent.page)), topicVector);
      return links.map((link) => {
        const k = structureFactor(parent.url, link.url);
        const anchorSim = cosine(termVector(tokenizer, link.anchor), topicVector);
        return alpha * (1 + k) * parentSim + beta * anchorSim;
      });
    },
  };
}
