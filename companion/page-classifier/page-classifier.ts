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
 * That is the `zones` method, the default. Two more follow the seeds to the letter:
 *
 * - `extracted` (seed 004 ch. 3–4): the body is the extracted main content
 *   (`shared/blocks/main-content.ts`); features are expanded from a knowledge base (the related
 *   terms of every knowledge-base term a page mentions join its body, §4.3.1), and the final
 *   feature set is the K best by IG plus every knowledge-base term in every zone (§4.3.3);
 * - `itfidf` (seed 002 §3): zone-weighted term frequencies (title > keywords > anchors > body)
 *   times idf times IG (`itfidf.ts`), the K features of highest mutual information kept
 *   (`mutual-information.ts`).
 *
 * All three end in the same Laplace-smoothed multinomial NB (seed 004 eq. 4-9, 4-10).
 *
 * Saved as JSON: `{kind: 'linkscent-page-model', version: 1, method, features, threshold,
 * trainedOn, model}` where `model` is the NaiveBayes's `toRows()`, with `knowledgeBase`
 * (extracted) or `weights` (itfidf: idf·IG per feature). A file without `method` is `zones`.
 */
import { extractMainContent } from '../../shared/blocks/main-content.ts';
import { expandTerms, knowledgeTerms, parseKnowledgeBase, type KnowledgeEntry } from '../../shared/features/knowledge-base.ts';
import { pageFeatures, type PageText } from '../../shared/features/page-features.ts';
import type { FeatureVector } from '../../shared/features/types.ts';
import { NaiveBayes, type NbRows } from '../../shared/model/naive-bayes.ts';
import type { Label } from '../../shared/model/types.ts';
import type { PageSegments } from '../../shared/segments/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { informationGain, topFeatures } from './information-gain.ts';
import { featureWeights, itfidfCounts, zoneWeightedTf } from './itfidf.ts';
import { mutualInformation } from './mutual-information.ts';

export const PAGE_MODEL_KIND = 'linkscent-page-model';
export const PAGE_MODEL_VERSION = 1;
/** Seed 004 keeps "the top features by IG" without a number; 2,000 is a common text-NB size. */
export const DEFAULT_PAGE_FEATURES = 2000;
export const DEFAULT_PAGE_THRESHOLD = 0.5;

/** How pages become features: see the header. */
export const PAGE_METHODS = ['zones', 'extracted', 'itfidf'] as const;
export type PageMethod = (typeof PAGE_METHODS)[number];

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
  /** Absent: `zones`. */
  method?: PageMethod;
  /** extracted: the knowledge base, `term: related, …` lines as parsed. */
  knowledgeBase?: KnowledgeEntry[];
  /** itfidf: [feature, idf·IG] for each kept feature. */
  weights?: [string, number][];
}

export interface PageTrainOptions {
  /** Features kept. Default `DEFAULT_PAGE_FEATURES`. */
  topK?: number;
  threshold?: number;
  /** Default `zones`. */
  method?: PageMethod;
  /** extracted: the knowledge base features are expanded from; none: no expansion. */
  knowledgeBase?: readonly KnowledgeEntry[];
}

/**
 * A page's zones as the classifier reads them: the body is the text runs without anchors (see
 * the header), or seed 004's main content for `extracted`; anchors are a zone of their own.
 */
export function pageTextOf(page: PageSegments, method: PageMethod = 'zones'): PageText {
  const anchors: string[] = [];
  for (const segment of page.segments) if (segment.kind === 'link' && segment.anchor !== '') anchors.push(segment.anchor);
  const zones = { title: page.title, keywords: page.keywords, description: page.description, anchors: anchors.join('\n') };
  if (method === 'extracted') return { ...zones, text: extractMainContent(page).blocks.join('\n') };
  const body: string[] = [];
  for (const segment of page.segments) if (segment.kind === 'text') body.push(segment.text);
  return { ...zones, text: body.join('\n') };
}

/** extracted: the page's zone features with the knowledge base's related terms of every term it mentions added to the body. */
function expandedFeatures(text: PageText, tokenizer: Tokenizer, base: readonly KnowledgeEntry[]): FeatureVector {
  const related = expandTerms(base, text.title, text.keywords ?? '', text.description ?? '', text.text);
  return pageFeatures(related.length === 0 ? text : { ...text, text: `${text.text}\n${related.join('\n')}` }, tokenizer);
}

/** extracted: every knowledge-base term's tokens in every zone, kept whatever their IG (seed 004 §4.3.3 step 3). */
function knowledgeFeatures(base: readonly KnowledgeEntry[], tokenizer: Tokenizer): string[] {
  const tokens = new Set(knowledgeTerms(base).flatMap((term) => tokenizer.tokenize(term)));
  return [...tokens].flatMap((token) => ['t:', 'k:', 'b:'].map((zone) => zone + token));
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
    /** The kept features, best first (by IG, or MI for itfidf). */
    readonly features: readonly string[],
    readonly threshold: number,
    readonly trainedOn: PageModelFile['trainedOn'],
    private readonly tokenizer: Tokenizer,
    readonly method: PageMethod = 'zones',
    private readonly knowledgeBase: readonly KnowledgeEntry[] = [],
    private readonly weights: ReadonlyMap<string, number> = new Map(),
  ) {
    this.#features = new Set(features);
  }

  /**
   * Selects features (IG; MI for itfidf) over the pages, then fits the multinomial NB on them.
   * The pages' text must come from `pageTextOf(page, method)`.
   */
  static train(pages: readonly LabeledPageText[], tokenizer: Tokenizer, options: PageTrainOptions = {}): PageClassifier {
    const topK = options.topK ?? DEFAULT_PAGE_FEATURES;
    const method = options.method ?? 'zones';
    const base = options.knowledgeBase ?? [];
    const labels = pages.map((page) => page.label);
    const positives = labels.filter((label) => label === 1).length;
    const trainedOn = (candidates: number) => ({ pages: pages.length, positives, negatives: pages.length - positives, candidates });
    const threshold = options.threshold ?? DEFAULT_PAGE_THRESHOLD;
    const model = new NaiveBayes({ form: 'multinomial' });
    if (method === 'itfidf') {
      const tfs = pages.map((page) => zoneWeightedTf(page.text, tokenizer));
      // Arrays, not key iterators: MI and IG both read them.
      const presence = tfs.map((tf, i) => ({ features: [...tf.keys()], label: labels[i]! }));
      const mi = mutualInformation(presence);
      const features = topFeatures(mi, topK);
      const weights = featureWeights(features, tfs, informationGain(presence));
      model.fit(tfs.map((tf, i) => ({ features: itfidfCounts(tf, weights), label: labels[i]! })));
      return new PageClassifier(model, features, threshold, trainedOn(mi.size), tokenizer, method, [], weights);
    }
    const vectors = pages.map((page) => (method === 'extracted' ? expandedFeatures(page.text, tokenizer, base) : pageFeatures(page.text, tokenizer)));
    const gains = informationGain(vectors.map((vector, i) => ({ features: vector.keys(), label: labels[i]! })));
    const features = topFeatures(gains, topK);
    if (method === 'extracted') for (const feature of knowledgeFeatures(base, tokenizer)) if (!features.includes(feature)) features.push(feature);
    const kept = new Set(features);
    model.fit(vectors.map((vector, i) => ({ features: keep(vector, kept), label: labels[i]! })));
    return new PageClassifier(model, features, threshold, trainedOn(gains.size), tokenizer, method, base);
  }

  /** P(on topic | page), in [0, 1], of a page's text as `pageTextOf(page, this.method)` gives it. */
  relevance(text: PageText): number {
    return this.model.score(this.#vector(text), 0).p;
  }

  /** P(on topic | page) of a parsed page. */
  judge(page: PageSegments): number {
    return this.relevance(pageTextOf(page, this.method));
  }

  #vector(text: PageText): FeatureVector {
    switch (this.method) {
      case 'itfidf':
        return itfidfCounts(zoneWeightedTf(text, this.tokenizer), this.weights);
      case 'extracted':
        return keep(expandedFeatures(text, this.tokenizer, this.knowledgeBase), this.#features);
      default:
        return keep(pageFeatures(text, this.tokenizer), this.#features);
    }
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
      method: this.method,
      ...(this.method === 'extracted' ? { knowledgeBase: this.knowledgeBase.map((entry) => ({ term: entry.term, related: [...entry.related] })) } : {}),
      ...(this.method === 'itfidf' ? { weights: [...this.weights] } : {}),
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
    const method = file.method ?? 'zones';
    if (!(PAGE_METHODS as readonly unknown[]).includes(method)) throw new Error(`page model: "method" must be one of ${PAGE_METHODS.join(', ')}`);
    return new PageClassifier(model, file.features, threshold, trainedOn, tokenizer, method, knowledgeBaseOf(file), weightsOf(file));
  }
}

/** A page model's knowledge base, checked the way a knowledge-base file is (one line per entry). */
function knowledgeBaseOf(file: Partial<PageModelFile>): KnowledgeEntry[] {
  if (file.method !== 'extracted' || file.knowledgeBase === undefined) return [];
  const entries = file.knowledgeBase as unknown;
  if (!Array.isArray(entries) || entries.some((e) => typeof e?.term !== 'string' || !Array.isArray(e.related) || e.related.some((r: unknown) => typeof r !== 'string'))) {
    throw new Error('page model: "knowledgeBase" must be a list of {term, related: [strings]}');
  }
  if (entries.length === 0) return [];
  const text = (entries as KnowledgeEntry[]).map((entry) => `${entry.term}: ${entry.related.join(', ')}`).join('\n');
  try {
    return parseKnowledgeBase(text, 'page model "knowledgeBase"');
  } catch (error) {
    throw new Error((error as Error).message, { cause: error });
  }
}

function weightsOf(file: Partial<PageModelFile>): Map<string, number> {
  if (file.method !== 'itfidf') return new Map();
  const weights = file.weights as unknown;
  if (!Array.isArray(weights) || weights.some((w) => !Array.isArray(w) || typeof w[0] !== 'string' || typeof w[1] !== 'number' || !Number.isFinite(w[1]))) {
    throw new Error('page model: "weights" must be a list of [feature, finite number]');
  }
  return new Map(weights as [string, number][]);
}
