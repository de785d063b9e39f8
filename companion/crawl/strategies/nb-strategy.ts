/**
 * `nb`: Han et al. 2010 §3.1. A link's priority is P(+ | its context), the Naive Bayes
 * posterior from the shared pipeline's `LinkScorer`, in [0, 1]. Seeds score 1.
 */
import type { LinkScorer } from '../../../shared/pipeline/link-scorer.ts';
import { FOCUSED_CLAIM_WINDOW, type CrawlStrategy } from './crawl-strategy.ts';

export interface NbStrategyOptions {
  scorer: LinkScorer;
  /** Identifies the model (e.g. a checksum of the model file) for resume checks. */
  fingerprint?: string;
}

export function createNbStrategy({ scorer, fingerprint }: NbStrategyOptions): CrawlStrategy {
  return {
    name: 'nb',
    seedScore: 1,
    fingerprint,
    claimWindow: FOCUSED_CLAIM_WINDOW,
    // The model was trained on contexts of its topic's window; score the same kind of context.
    contexts: (page) => scorer.contexts(page),
    scoreLinks: (_parent, links) => links.map((link) => scorer.score(link).p),
  };
}
