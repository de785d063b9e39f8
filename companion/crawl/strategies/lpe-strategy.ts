/**
 * `lpe`: seed 002's Link Priority Evaluation (§4). The page is cut into content blocks
 * (`shared/blocks/content-blocks.ts`); each block is compared with the topic:
 *
 *     sim(block, topic) ≥ θ   every link of the block gets sim(block, topic)           (§4.2)
 *     otherwise               each link gets its Joint Feature Evaluation (§4.1):
 *                             JFE(u, v) = λ·sim_anchor(u, v) + (1 − λ)·sim_context(u, v)
 *
 * λ = 0.5 (the paper's value: anchor and context weigh the same). sim is the cosine of TFC
 * weights (`tfc-weights.ts`, seed 002 §4.2) over one collection per page: the topic, the page's
 * content blocks, and each link's anchor and context (the link context of seed 000 §3.3, the
 * words or neighbouring anchors around the link, `before` and `after` joined). Scores lie in
 * [0, 1]; seeds score 1.
 *
 * θ: the paper calls a block "relevant" without giving the threshold; 0.2 is ours (a block
 * sharing a fifth of its weighted direction with the topic), `--block-threshold` changes it.
 */
import type { LinkContext } from '../../../shared/contexts/types.ts';
import { contentBlocks } from '../../../shared/blocks/content-blocks.ts';
import type { PageSegments } from '../../../shared/segments/types.ts';
import type { Tokenizer } from '../../../shared/tokens/types.ts';
import { FOCUSED_CLAIM_WINDOW, type CrawlStrategy } from './crawl-strategy.ts';
import { tfcWeights } from './tfc-weights.ts';
import { cosine, termVector } from './term-vector.ts';

export interface LpeOptions {
  tokenizer: Tokenizer;
  /** Topic keywords or sample text. */
  topic: string;
  /** λ of JFE, in [0, 1]. Default 0.5 (seed 002 §4.1). */
  lambda?: number;
  /** θ: least sim(block, topic) for a block to pass its relevance to its links, in [0, 1]. Default 0.2. */
  blockThreshold?: number;
}

export const DEFAULT_LAMBDA = 0.5;
export const DEFAULT_BLOCK_THRESHOLD = 0.2;

/** How one link was valued: by its block's relevance, or by JFE's two parts. */
export type LinkValue =
  | { by: 'block'; value: number; blockSim: number }
  | { by: 'jfe'; value: number; blockSim: number | null; anchorSim: number; contextSim: number };

/**
 * Each link's value on one page, with how it was reached (what the tests check by hand). Links
 * are matched to blocks by their place among the page's links, which is the order
 * `extractContexts` gives them in; a link that does not match (another context extractor) has
 * no block and is valued by JFE.
 */
export function linkValues(
  page: PageSegments,
  links: readonly LinkContext[],
  tokenizer: Tokenizer,
  topic: string,
  lambda = DEFAULT_LAMBDA,
  blockThreshold = DEFAULT_BLOCK_THRESHOLD,
): LinkValue[] {
  const blocks = contentBlocks(page);
  const blockOf = new Map<number, { index: number; url: string }>();
  blocks.forEach((block, index) => {
    for (const link of block.links) blockOf.set(link.ordinal, { index, url: link.url });
  });
  const units = [
    termVector(tokenizer, topic),
    ...blocks.map((block) => termVector(tokenizer, block.text)),
    ...links.map((link) => termVector(tokenizer, link.anchor)),
    ...links.map((link) => termVector(tokenizer, link.before, link.after)),
  ];
  const weighted = tfcWeights(units);
  const topicWeights = weighted[0]!;
  const blockSims = blocks.map((_, b) => cosine(weighted[1 + b]!, topicWeights));
  return links.map((link, i) => {
    const place = blockOf.get(i);
    const blockSim = place !== undefined && place.url === link.url ? blockSims[place.index]! : null;
    if (blockSim !== null && blockSim >= blockThreshold) return { by: 'block', value: blockSim, blockSim };
    const anchorSim = cosine(weighted[1 + blocks.length + i]!, topicWeights);
    const contextSim = cosine(weighted[1 + blocks.length + links.length + i]!, topicWeights);
    return { by: 'jfe', value: lambda * anchorSim + (1 - lambda) * contextSim, blockSim, anchorSim, contextSim };
  });
}

export function createLpeStrategy({ tokenizer, topic, lambda = DEFAULT_LAMBDA, blockThreshold = DEFAULT_BLOCK_THRESHOLD }: LpeOptions): CrawlStrategy {
  if (!(lambda >= 0 && lambda <= 1)) throw new RangeError(`lpe: lambda must lie in [0, 1], got ${lambda}`);
  if (!(blockThreshold >= 0 && blockThreshold <= 1)) throw new RangeError(`lpe: block threshold must lie in [0, 1], got ${blockThreshold}`);
  const topicTerms = termVector(tokenizer, topic);
  if (topicTerms.size === 0) throw new RangeError('lpe: the topic text has no words');
  return {
    name: 'lpe',
    seedScore: 1,
    claimWindow: FOCUSED_CLAIM_WINDOW,
    fingerprint: JSON.stringify({ lambda, blockThreshold, topic: [...topicTerms.keys()].sort() }),
    scoreLinks(parent, links) {
      return linkValues(parent.page, links, tokenizer, topic, lambda, blockThreshold).map((value) => value.value);
    },
  };
}
