/**
 * The link-scent pipeline, composed: page segments → link contexts → features → scores.
 *
 * Both the extension's worker and the companion's crawler score links through this one class,
 * so that a model trained on either side scores the same link the same way on the other.
 */
import type { LinkContext } from '../contexts/types.ts';
import { extractContexts } from '../contexts/extract-contexts.ts';
import type { FeatureOptions, FeatureVector } from '../features/types.ts';
import { linkFeatures } from '../features/link-features.ts';
import type { NaiveBayes } from '../model/naive-bayes.ts';
import type { Score } from '../model/types.ts';
import type { PageSegments } from '../segments/types.ts';
import type { Tokenizer } from '../tokens/types.ts';

export interface LinkScorerOptions {
  tokenizer: Tokenizer;
  model: NaiveBayes;
  features: FeatureOptions;
  /** Context window W in characters (Han et al. 2010 §3.3). */
  window: number;
  /** How many features each score's explanation keeps. Default 8. */
  explainTop?: number;
}

export interface ScoredLink extends LinkContext {
  score: Score;
}

export class LinkScorer {
  readonly #options: LinkScorerOptions;

  constructor(options: LinkScorerOptions) {
    this.#options = options;
  }

  get model(): NaiveBayes {
    return this.#options.model;
  }

  /** Stage 2: the page's link contexts, in page order. */
  contexts(page: PageSegments): LinkContext[] {
    return extractContexts(page, { window: this.#options.window });
  }

  /** Stages 3–4 for one context: its feature vector (the level classifier scores the same one). */
  features(context: LinkContext): FeatureVector {
    return linkFeatures(context, this.#options.tokenizer, this.#options.features);
  }

  /** Stages 3–5 for one context: P(+ | features) with its explanation. */
  score(context: LinkContext): Score {
    const { model, explainTop = 8 } = this.#options;
    return model.score(this.features(context), explainTop);
  }

  /** Every link of a page, scored, in page order. */
  scorePage(page: PageSegments): ScoredLink[] {
    return this.contexts(page).map((context) => ({ ...context, score: this.score(context) }));
  }
}
