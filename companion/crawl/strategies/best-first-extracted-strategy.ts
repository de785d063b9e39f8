/**
 * `best-first-extracted`: Ma 2018 (seed 004) end to end, the thesis's pipeline in one strategy:
 *
 *   1. the parent page is read through main-content extraction (§3.4, `shared/blocks/
 *      main-content.ts`: title, meta, the p/li/td/h1 blocks with sentence punctuation, links
 *      removed), not through every visible word as plain `best-first` does;
 *   2. the topic is expanded from a knowledge base (§4.3.1, `shared/features/knowledge-base.ts`):
 *      the related terms of every knowledge-base term the topic mentions join the topic vector;
 *   3. links are valued by eq. 5-4 as in `best-first`:
 *          v = α·(1 + k)·sim(main content of parent, topic′) + β·sim(anchor, topic′),  β = 1 − α
 *      k from table 5-2 (1 same URL structure, ½ same host, 0 otherwise), α = 0.6.
 *
 * Without a knowledge base step 2 is skipped: the strategy is best-first over extracted content.
 */
import { extractMainContent, mainContentTexts } from '../../../shared/blocks/main-content.ts';
import { expandTerms, type KnowledgeBase } from '../../../shared/features/knowledge-base.ts';
import type { Tokenizer } from '../../../shared/tokens/types.ts';
import { createBestFirstStrategy } from './best-first-strategy.ts';
import type { CrawlStrategy } from './crawl-strategy.ts';

export interface BestFirstExtractedOptions {
  tokenizer: Tokenizer;
  /** Topic keywords or sample text. */
  topic: string;
  /** α of eq. 5-4, in [0, 1]. Default 0.6. */
  alpha?: number;
  /** The knowledge base the topic is expanded from; none: no expansion. */
  knowledgeBase?: KnowledgeBase;
}

export function createBestFirstExtractedStrategy({ tokenizer, topic, alpha, knowledgeBase = [] }: BestFirstExtractedOptions): CrawlStrategy {
  return createBestFirstStrategy({
    tokenizer,
    topic,
    alpha,
    name: 'best-first-extracted',
    parentText: (page) => mainContentTexts(extractMainContent(page)),
    topicExpansion: expandTerms(knowledgeBase, topic),
  });
}
