/**
 * The link-scent pipeline, composed: page segments → link contexts → features → scores.
 *
 * Both the extension's worker and the companion's crawler score links through this one class,
 * so that a model trained on either side scores the same link the same way on the other. The
 * crawler hands it whole pages (`scorePage`); the worker gets contexts the content script already
 * extracted and scores those (`score`), and trains through `featuresOf`, so the features a model
 * learns from are built by the same code as the ones it is asked about.
 */
import type { LinkContext } from '../contexts/types.ts';
import { extractContexts } from '../contexts/extract-contexts.ts';
import { FeatureList, type FeatureSequence } from '../features/feature-list.ts';
import type { FeatureOptions, FeatureVector } from '../features/types.ts';
import { emitLinkFeatures, linkFeatures } from '../features/link-features.ts';
import type { NaiveBayes, NbScore } from '../model/naive-bayes.ts';
import { topicFeatureOptions } from '../model/topic-features.ts';
import type { Contribution, Score, Topic } from '../model/types.ts';
import type { PageSegments } from '../segments/types.ts';
import type { Tokenizer } from '../tokens/types.ts';

export interface LinkScorerOptions {
  tokenizer: Tokenizer;
  model: NaiveBayes;
  features: FeatureOptions;
  /** Context window W in characters (Han et al. 2010 §3.3). */
  window: number;
  /** How many features each score's explanation keeps (0: none, cheapest). Default 8. */
  explainTop?: number;
}

export interface ScoredLink extends LinkContext {
  score: Score;
}

export class LinkScorer {
  readonly #options: Required<LinkScorerOptions>;
  /** The last scored context's features, listed without a vector (`FeatureList`), and that context. */
  readonly #list = new FeatureList();
  #listedContext: LinkContext | undefined;
  #listedStamp = 0;

  constructor(options: LinkScorerOptions) {
    this.#options = { explainTop: 8, ...options };
  }

  /**
   * The scorer of a topic's model: features and window as the topic says, which is how its model
   * was trained (`topicFeatureOptions`), on either side.
   */
  static forTopic(topic: Topic, model: NaiveBayes, tokenizer: Tokenizer, explainTop?: number): LinkScorer {
    const features = topicFeatureOptions(topic);
    return new LinkScorer({ tokenizer, model, features, window: topic.window, ...(explainTop === undefined ? {} : { explainTop }) });
  }

  get model(): NaiveBayes {
    return this.#options.model;
  }

  /** The context window W its contexts are extracted with. */
  get window(): number {
    return this.#options.window;
  }

  /** Stage 2: the page's link contexts, in page order. */
  contexts(page: PageSegments): LinkContext[] {
    return extractContexts(page, { window: this.#options.window });
  }

  /** Stages 3–4 for one context: what the model learns from and is asked about. */
  featuresOf(context: LinkContext): FeatureVector {
    const { tokenizer, features } = this.#options;
    return linkFeatures(context, tokenizer, features);
  }

  /**
   * Stages 3–5 for one context: P(+ | features) with an explanation of `explainTop` features
   * (default the scorer's). The model's `score` of `featuresOf(context)`, to the last bit, without
   * building the vector (`FeatureList`, `NaiveBayes.scoreSequence`).
   */
  score(context: LinkContext, explainTop = this.#options.explainTop): NbScore {
    return this.#options.model.scoreSequence(this.listFeatures(context), explainTop);
  }

  /**
   * The `top` features behind `context`'s score, as `score(context, top).top` gives them; right
   * after `score(context)` its features are still listed and only the sums are done again. For
   * a caller that decides from P(+) whether an explanation is wanted (the worker's verdicts).
   */
  explain(context: LinkContext, top: number): Contribution[] {
    const listed = this.#listedContext === context && this.#listedStamp === this.#list.stamp;
    const list = listed ? this.#list : this.listFeatures(context);
    return this.#options.model.scoreSequence(list, top).top;
  }

  /**
   * `context`'s features as `featuresOf` gives them (present ones, in order), listed without a
   * vector, for a caller that asks several classifiers about one link (the nb crawl: the link
   * and the level classifier). Valid until this scorer lists or scores another link.
   */
  listFeatures(context: LinkContext): FeatureSequence {
    const { tokenizer, features } = this.#options;
    const list = this.#list;
    list.begin((features.version ?? 1) === 1);
    emitLinkFeatures(context, tokenizer, features, list.emit);
    this.#listedContext = context;
    this.#listedStamp = list.stamp;
    return list;
  }

  /** Every link of a page, scored, in page order. */
  scorePage(page: PageSegments): ScoredLink[] {
    return this.contexts(page).map((context) => ({ ...context, score: this.score(context) }));
  }
}
