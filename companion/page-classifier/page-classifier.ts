/**
 * The page classifier: is a fetched page on topic? It judges a crawl (the harvest rate of
 * Han et al. 2010 §4.3.2 was measured with one) and is the page-trained baseline of their
 * §4.2, Table 2. The method is Ma 2018's (seed 004 ch. 4):
 *
 *   1. features by zone from title, meta keywords/description and body text (`pageFeatures`:
 *      `t:`, `k:`, `b:` token counts);
 *   2. information-gain selection: keep the K features of highest IG (eq. 4-1), K = 2,000;
 *   3. a multinomial Naive Bayes with Laplace smoothing over the kept features (eq. 4-6), the
 *      shared `NaiveBayes` in its multinomial form.
 *
 * The body text is the page's text runs without link anchors: navigation bars and link lists are
 * links, so leaving anchors out is a cheap main-content denoising (seed 004 §3), and the page's
 * own words are what a page classifier should judge.
 *
 * Saved as JSON: `{kind: 'linkscent-page-model', version: 1, features, threshold, trainedOn,
 * model}` where `model` is the NaiveBayes's `toRows()`.
 */
import { pageFeatures, type PageText } from '../../shared/features/page-features.ts';
import type { FeatureVector } from '../../shared/features/types.ts';
import { NaiveBayes, type NbRows } from '../../shared/model/naive-bayes.ts';
import type { Label } from '../../shared/model/types.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { informationGain, topFeatures } from './information-gain.ts';

export const PAGE_MODEL_KIND = 'linkscent-page-model';
export const PAGE_MODEL_VERSION = 1;
/** Seed 004 keeps "the top features by IG" without a number; 2,000 is a common text-NB size. */
export const DEFAULT_PAGE_FEATURES = 2000;
export const DEFAULT_PAGE_THRESHOLD = 0.5;

export interface LabeledPageText {
  text: PageText;
  label: Label;
}

export interface PageModelFile {
  kind: typeof PAGE_MODEL_KIND;
  version: number;
  createdAt: string;
  /** Relevance at or above which a page counts as on topic. */
  threshold: number;
  /** The features kept by information gain, best first. */
  features: string[];
  trainedOn: { pages: number; positives: number; negatives: number; candidates: number };
  model: unknown;
}

/** A page's zones as the classifier reads them (see the header on anchors). */
export function pageTextOf(page: PageSegments): PageText {
  const body: string[] = [];
  for (const segment of page.segments) if (segment.kind === 'text') body.push(segment.text);
  return { title: page.title, keywords: page.keywords, description: page.description, text: body.join('\n') };
}

function keep(vector: FeatureVector, features: ReadonlySet<string>): FeatureVector {
  const kept: FeatureVector = new Map();
  for (const [feature, count] of vector) if (features.has(feature)) kept.set(feature, count);
  return kept;
}

export class PageClassifier {
  readonly #features: ReadonlySet<string>;

  private constructor(
    private readonly model: NaiveBayes,
    /** The kept features, best IG first. */
    readonly features: readonly string[],
    readonly threshold: number,
    readonly trainedOn: PageModelFile['trainedOn'],
    private readonly tokenizer: Tokenizer,
  ) {
    this.#features = new Set(features);
  }

  /** Selects features by IG over the pages, then fits the multinomial NB on them. */
  static train(pages: readonly LabeledPageText[], tokenizer: Tokenizer, options: { topK?: number; threshold?: number } = {}): PageClassifier {
    const topK = options.topK ?? DEFAULT_PAGE_FEATURES;
    const vectors = pages.map((page) => ({ vector: pageFeatures(page.text, tokenizer), label: page.label }));
    const gains = informationGain(vectors.map(({ vector, label }) => ({ features: vector.keys(), label })));
    const features = topFeatures(gains, topK);
    const kept = new Set(features);
    const model = new NaiveBayes({ form: 'multinomial' });
    model.fit(vectors.map(({ vector, label }) => ({ features: keep(vector, kept), label })));
    const positives = pages.filter((page) => page.label === 1).length;
    return new PageClassifier(
      model,
      features,
      options.threshold ?? DEFAULT_PAGE_THRESHOLD,
      { pages: pages.length, positives, negatives: pages.length - positives, candidates: gains.size },
      tokenizer,
    );
  }

  /** P(on topic | page), in [0, 1]. */
  relevance(text: PageText): number {
    return this.model.score(keep(pageFeatures(text, this.tokenizer), this.#features), 0).p;
  }

  toFile(now = new Date()): PageModelFile {
    return {
      kind: PAGE_MODEL_KIND,
      version: PAGE_MODEL_VERSION,
      createdAt: now.toISOString(),
      threshold: this.threshold,
      features: [...this.features],
      trainedOn: this.trainedOn,
      model: this.model.toRows(),
    };
  }

  /** Rebuilds a classifier from its file's parsed JSON; throws an Error saying what is wrong. */
  static fromFile(json: unknown, tokenizer: Tokenizer): PageClassifier {
    const file = json as Partial<PageModelFile> | null;
    if (typeof file !== 'object' || file === null || file.kind !== PAGE_MODEL_KIND) {
      throw new Error(`not a page model (expected "kind": "${PAGE_MODEL_KIND}"; train one with linkscent train --pages)`);
    }
    if (file.version !== PAGE_MODEL_VERSION) throw new Error(`page model version ${String(file.version)} is not supported (expected ${PAGE_MODEL_VERSION})`);
    if (!Array.isArray(file.features) || file.features.some((feature) => typeof feature !== 'string')) {
      throw new Error('page model: "features" must be a list of strings');
    }
    const threshold = file.threshold ?? DEFAULT_PAGE_THRESHOLD;
    if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw new Error('page model: "threshold" must lie in [0, 1]');
    const trainedOn = file.trainedOn ?? { pages: 0, positives: 0, negatives: 0, candidates: 0 };
    let model: NaiveBayes;
    try {
      model = NaiveBayes.fromRows(file.model as NbRows);
    } catch (error) {
      throw new Error(`page model: bad "model": ${(error as Error).message}`, { cause: error });
    }
    return new PageClassifier(model, file.features, threshold, trainedOn, tokenizer);
  }
}
