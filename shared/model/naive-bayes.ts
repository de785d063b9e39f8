/**
 * Naive Bayes link classifier: stage 5 of the pipeline. Seed 000 (Han et al. 2010) scores a link
 * by P(+ | F1..Fn), the posterior of the on-topic class given its features, with the features
 * assumed independent given the class:
 *
 *   P(Ci | x) ∝ P(Ci) · Π_j P(Fj | Ci)                 classes C0 = off topic, C1 = on topic
 *
 * Three event models, all Laplace-smoothed with pseudo-count α (default 1):
 *
 *   Bernoulli (seed 000, eq. 2):   P(Fj | Ci) = (Count(Fj, Ci) + α) / (Count_i + 2α)
 *     Count(Fj, Ci) = number of Ci examples containing Fj; Count_i = number of Ci examples.
 *     Every vocabulary feature takes part, present or absent:
 *     log P(x | Ci) = Σ_{j∈V} log(1 − P(Fj|Ci)) + Σ_{j∈x∩V} [log P(Fj|Ci) − log(1 − P(Fj|Ci))]
 *     The first sum is cached per class and refreshed lazily after `add` / `remove`.
 *
 *   Multinomial:   θ_ji = (Occ(Fj, Ci) + α) / (Tokens_i + α|V|)
 *     Occ = occurrences of Fj over Ci's examples; Tokens_i = Σ_j Occ(Fj, Ci).
 *     log P(x | Ci) = Σ_{j∈x∩V} x_j · log θ_ji   (the multinomial coefficient cancels in P(Ci|x))
 *
 *   Mixed: the vocabulary splits into words W (`a:`, `c:`) and attributes A (`u:`, `d:`, `lex:`;
 *   `isAttributeFeature`), and each part gets the event model that describes it (McCallum &
 *   Nigam 1998, "A comparison of event models for Naive Bayes text classification", compare the
 *   two on text; the product of the two likelihoods is still a Naive Bayes model, the parts
 *   being independent given the class):
 *     log P(x | Ci) = Σ_{j∈x∩W} x_j · log θ^W_ji                     θ^W_ji = (Occ(Fj, Ci) + α) / (Tokens^W_i + α|W|)
 *                   + Σ_{j∈A} log(1 − P(Fj|Ci)) + Σ_{j∈x∩A} [log P(Fj|Ci) − log(1 − P(Fj|Ci))]
 *     Words are drawn from a text, so the multinomial's counts suit them and the words a short
 *     anchor lacks say little; a link's attributes are what it is (its URL lies under a directory
 *     or it does not), so lacking the directory every on-topic link lies under is evidence.
 *
 *   Prior, smoothed like the likelihoods so that a class with no examples is improbable, not
 *   impossible (log 0 = −∞ would pin every score at 0 or 1):
 *     P(Ci) = (Count_i + α) / (N + 2α),   N = Count_0 + Count_1
 *
 *   Posterior, in log space with one log-sum-exp:
 *     logJoint_i = logPrior_i + logLikelihood_i
 *     P(C1 | x) = exp(logJoint_1 − logSumExp(logJoint_0, logJoint_1))
 *
 * V is the vocabulary seen in training. A feature outside V has no counts in either class, so it
 * carries no evidence: it is ignored (the score reports how many were), and V does not grow at
 * scoring time, which would otherwise shift the Bernoulli absent-feature sum.
 *
 * Sign convention (one place): a score is P(+ | link) in [0, 1]; higher is crawled sooner. An
 * explanation weight > 0 pushes towards on topic.
 */
import { presentFeatures, type FeatureSequence } from '../features/feature-list.ts';
import type { FeatureVector } from '../features/types.ts';
import { epochOf, newFeatureTerms, type FeatureTerms } from './feature-terms.ts';
import { checkHeader, NB_FORMS, NbCounts, type FeatureCounts, type NbRows } from './nb-counts.ts';
import type { ClassPair, Contribution, Label, NbFeatureRow, NbForm, NbHeaderRow, Score } from './types.ts';

export type { NbRows } from './nb-counts.ts';

export interface NaiveBayesOptions {
  /** Event model: 'bernoulli' (seed 000, eq. 2), 'multinomial' or 'mixed' (see the file header). */
  form: NbForm;
  /** Laplace pseudo-count α, > 0. Default 1 (seed 000's "+1 / +2"). */
  alpha?: number;
}

/** One training example, as `fit` takes them. */
export interface NbExample {
  features: FeatureVector;
  label: Label;
}

/** A score with what the model could not use. */
export interface NbScore extends Score {
  /** True when the model has no examples: then p is 0.5 and carries no information. */
  untrained: boolean;
  /** Present features outside the training vocabulary, ignored (they carry no evidence). */
  unseen: number;
}

/** Default number of contributions in a score's explanation. */
export const DEFAULT_EXPLAIN_TOP = 8;

export class NaiveBayes {
  readonly form: NbForm;
  /** Laplace pseudo-count α. */
  readonly alpha: number;
  #counts = new NbCounts();
  /** log(k + α) for k < `LOG_TABLE_SIZE` (`#logOf`), filled on first use. */
  #logTable: Float64Array | undefined;
  /** What every score under one revision of the counts shares (`#constants`). */
  #constants: ScoreConstants | undefined;
  /** The terms of a feature scored without a memo (a vector's), reused: used at once, never kept. */
  readonly #scratch: FeatureTerms = newFeatureTerms();

  constructor(options: NaiveBayesOptions) {
    if (!NB_FORMS.includes(options.form)) throw new Error(`NaiveBayes: form must be one of ${NB_FORMS.join(', ')}, got ${JSON.stringify(options.form)}`);
    const alpha = options.alpha ?? 1;
    if (!(alpha > 0) || !Number.isFinite(alpha)) throw new Error(`NaiveBayes: alpha must be a finite number > 0, got ${String(alpha)}`);
    this.form = options.form;
    this.alpha = alpha;
  }

  /**
   * A model equal to this one that shares its counts until it changes them (`NbCounts.fork`):
   * a service's crawls start from one decoded model and each learns on its own. This model must
   * not change while forks of it exist.
   */
  fork(): NaiveBayes {
    const fork = new NaiveBayes({ form: this.form, alpha: this.alpha });
    fork.#counts = this.#counts.fork();
    return fork;
  }

  /**
   * Takes `other`'s counts as this model's own (same form and α): a crawl sharing its learning
   * through Redis rebuilds the model it scores with in place, since its strategy holds this object.
   * `other` must not be used afterwards.
   */
  assign(other: NaiveBayes): void {
    if (other.form !== this.form || other.alpha !== this.alpha) {
      throw new Error(`NaiveBayes.assign: a ${other.form} model with alpha ${other.alpha} cannot replace a ${this.form} one with alpha ${this.alpha}`);
    }
    this.#counts = other.#counts;
  }

  /** |V|: features seen in training. */
  get vocabularySize(): number {
    return this.#counts.features.size;
  }

  /** N = Count_0 + Count_1. */
  get exampleCount(): number {
    return this.#counts.exampleCount;
  }

  /** Count_i for i = 0, 1 (a copy). */
  get classCounts(): ClassPair {
    return [...this.#counts.count];
  }

  /** Count_y += 1; Count(Fj, Cy) += 1 and Occ(Fj, Cy) += x_j for each present Fj (Han et al. 2010, eq. (2)). */
  add(x: FeatureVector, y: Label): void {
    this.#counts.add(x, y);
  }

  /** The exact inverse of `add`; throws, changing nothing, if a count would go below zero (Han et al. 2010, eq. (2)). */
  remove(x: FeatureVector, y: Label): void {
    this.#counts.remove(x, y);
  }

  /**
   * Counts from zero over the examples, by the same code as `add` (Han et al. 2010, eq. (2)).
   * Either `fit(examples)` or `fit(xs, ys)`. On an invalid example the model is left unchanged.
   */
  fit(examples: Iterable<NbExample>): this;
  fit(xs: readonly FeatureVector[], ys: readonly Label[]): this;
  fit(examplesOrXs: Iterable<NbExample> | readonly FeatureVector[], ys?: readonly Label[]): this {
    const fresh = new NbCounts();
    if (ys !== undefined) {
      const xs = examplesOrXs as readonly FeatureVector[];
      if (xs.length !== ys.length) throw new Error(`NaiveBayes.fit: ${xs.length} feature vectors but ${ys.length} labels`);
      xs.forEach((x, n) => fresh.add(x, ys[n]!));
    } else {
      for (const { features, label } of examplesOrXs as Iterable<NbExample>) fresh.add(features, label);
    }
    this.#counts = fresh;
    return this;
  }

  /** log P(Ci) = log(Count_i + α) − log(N + 2α): Laplace-smoothed prior (Han et al. 2010, eq. (2) applied to the classes). */
  logPrior(i: Label): number {
    const { count } = this.#counts;
    return Math.log(count[i] + this.alpha) - Math.log(count[0] + count[1] + 2 * this.alpha);
  }

  /**
   * P(C1 | x) = exp(logJoint_1 − logSumExp(logJoint_0, logJoint_1)), logJoint_i = log P(Ci) +
   * log P(x | Ci) (Han et al. 2010, eq. (2)), with the `top` features by |log-odds contribution|.
   */
  score(x: FeatureVector, top: number = DEFAULT_EXPLAIN_TOP): NbScore {
    return this.scoreSequence(presentFeatures(x), top);
  }

  /**
   * `score` of the example whose present features (count > 0) are `x`, in order: what `score`
   * of a vector with those entries gives, to the last bit (the same sums in the same order).
   * A scorer that lists its features without a `Map` (`FeatureList`) scores through this.
   */
  scoreSequence(x: FeatureSequence, top: number = DEFAULT_EXPLAIN_TOP): NbScore {
    const counts = this.#counts;
    const { names, attributes } = x;
    const occurrences = x.counts;
    if (counts.exampleCount === 0) return { p: 0.5, logOdds: 0, top: [], untrained: true, unseen: x.length };
    const constants = this.#constantsOf(counts);
    let logLikelihood0 = constants.absent[0];
    let logLikelihood1 = constants.absent[1];
    // Only an explanation needs them: a score alone (the worker's, the crawl's) builds no array.
    const contributions: Contribution[] | undefined = top > 0 ? [] : undefined;
    let unseen = 0;
    const [count0, count1] = counts.count;
    const words = this.form === 'mixed';
    const { logDenominator0, logDenominator1 } = constants;
    const { memos } = x;
    const { revision } = counts;
    // Read once: the memos' record references hold while these are unchanged (`NbCounts`).
    const entered = counts.entered;
    const detached = counts.detached;
    for (let j = 0; j < x.length; j++) {
      const feature = names[j]!;
      // The feature's terms under these counts: from its memo while the counts are unchanged; after
      // a change, worked out again from the counts record the memo holds (no look-up by name while
      // that record is still the feature's, `NbCounts.detached`), else from a look-up
      // (`feature-terms.ts`).
      const memo = memos?.[j];
      let terms: FeatureTerms;
      if (memo !== undefined && memo.owner === counts) {
        terms = memo.value as FeatureTerms;
        if (memo.revision !== revision) {
          if (terms.epoch !== epochOf(terms.entry, entered, detached)) this.#lookUp(terms, counts, feature, entered, detached);
          if (terms.entry !== undefined) this.#workOut(terms, terms.entry, words && attributes[j]!, count0, count1, logDenominator0, logDenominator1);
          memo.revision = revision;
        }
      } else {
        terms = memo === undefined ? this.#scratch : newFeatureTerms();
        this.#lookUp(terms, counts, feature, entered, detached);
        if (terms.entry !== undefined) this.#workOut(terms, terms.entry, words && attributes[j]!, count0, count1, logDenominator0, logDenominator1);
        if (memo !== undefined) {
          memo.owner = counts;
          memo.revision = revision;
          memo.value = terms;
        }
      }
      if (terms.entry === undefined) {
        unseen++;
        continue;
      }
      let term0 = terms.unit0;
      let term1 = terms.unit1;
      if (!terms.bernoulli) {
        // n · log θ_ji
        const n = occurrences[j]!;
        term0 = n * term0;
        term1 = n * term1;
      }
      logLikelihood0 += term0;
      logLikelihood1 += term1;
      if (contributions !== undefined) contributions.push({ feature, weight: term1 - term0 });
    }
    const logJoint0 = constants.logPrior0 + logLikelihood0;
    const logJoint1 = constants.logPrior1 + logLikelihood1;
    const logEvidence = logSumExp(logJoint0, logJoint1);
    return {
      p: Math.exp(logJoint1 - logEvidence),
      logOdds: logJoint1 - logJoint0,
      top: contributions !== undefined ? topContributions(contributions, top) : [],
      untrained: false,
      unseen,
    };
  }

  /** ŷ = 1 iff P(C1 | x) ≥ threshold (default 0.5) (Han et al. 2010, eq. (2)). */
  predict(x: FeatureVector, threshold = 0.5): Label {
    return this.score(x, 0).p >= threshold ? 1 : 0;
  }

  /**
   * The counts as plain JSON rows: a header (Count_i, Tokens_i, form, α) and one row per feature
   * (Count(Fj, Ci), Occ(Fj, Ci)) (Han et al. 2010, eq. (2)). `topic` keys them in the database;
   * '' for rows kept elsewhere.
   */
  toRows(topic = ''): NbRows {
    return this.#counts.toRows(topic, this.form, this.alpha, Date.now());
  }

  /** The model whose `toRows()` gave these rows, every invariant checked (an Error names a bad row). */
  static fromRows(rows: NbRows): NaiveBayes;
  static fromRows(header: NbHeaderRow, features: Iterable<NbFeatureRow>): NaiveBayes;
  static fromRows(headerOrRows: NbHeaderRow | NbRows, features?: Iterable<NbFeatureRow>): NaiveBayes {
    let header: unknown = headerOrRows;
    if (features === undefined) {
      const rows = headerOrRows as Partial<NbRows> | null;
      if (typeof rows !== 'object' || rows === null || !Array.isArray(rows.features)) {
        throw new Error('model rows: expected {header, features}');
      }
      header = rows.header;
      features = rows.features;
    }
    checkHeader(header);
    const model = new NaiveBayes({ form: header.form, alpha: header.alpha });
    model.#counts = NbCounts.fromRows(header, features);
    return model;
  }

  /** `terms.entry`: `feature`'s counts record, or undefined outside V; `epoch` what keeps it valid. */
  #lookUp(terms: FeatureTerms, counts: NbCounts, feature: string, entered: number, detached: number): void {
    const entry = counts.features.get(feature);
    terms.entry = entry;
    terms.epoch = epochOf(entry, entered, detached);
  }

  /** A feature's terms from its counts record, under the current counts' class totals. */
  #workOut(terms: FeatureTerms, featureCounts: FeatureCounts, attribute: boolean, count0: number, count1: number, logDenominator0: number, logDenominator1: number): void {
    if (this.form === 'bernoulli' || attribute) {
      // log P(Fj|Ci) − log(1 − P(Fj|Ci)) = log(Count(Fj,Ci) + α) − log(Count_i − Count(Fj,Ci) + α)
      terms.bernoulli = true;
      terms.unit0 = this.#logOf(featureCounts.count[0]) - this.#logOf(count0 - featureCounts.count[0]);
      terms.unit1 = this.#logOf(featureCounts.count[1]) - this.#logOf(count1 - featureCounts.count[1]);
    } else {
      // log θ_ji = log(Occ(Fj,Ci) + α) − log(Tokens_i + α|V|), taken n times by the caller
      terms.bernoulli = false;
      terms.unit0 = this.#logOf(featureCounts.occurrences[0]) - logDenominator0;
      terms.unit1 = this.#logOf(featureCounts.occurrences[1]) - logDenominator1;
    }
  }

  /**
   * log(k + α) for a count k ≥ 0, the one logarithm scoring takes per count (Han et al. 2010,
   * eq. (2)'s smoothed numerators and denominators). Small counts, the great majority, are looked
   * up in a table filled by the very same expression, so the value is the same to the last bit.
   */
  #logOf(k: number): number {
    // Undefined for anything but a whole number below the table's size: computed, as before.
    const cached = (this.#logTable ??= logTable(this.alpha))[k];
    return cached !== undefined ? cached : Math.log(k + this.alpha);
  }

  /**
   * Σ_{j} log(1 − P(Fj|Ci)) over the features the form models as Bernoulli (all of V, or the
   * attributes A in the mixed form) = Σ_k H_i[k] · log(Count_i − k + α) − |H_i| · log(Count_i + 2α),
   * with H_i[k] = number of those features with Count(Fj,Ci) = k (Han et al. 2010, eq. (2)).
   * Cached until the counts change.
   */
  #logAbsentPerClass(counts: NbCounts): ClassPair {
    const histograms = this.form === 'mixed' ? counts.attributeHistogram : counts.countHistogram;
    const value: ClassPair = [0, 0];
    for (const i of [0, 1] as const) {
      let sum = 0;
      let features = 0;
      // In key order, so the same counts always sum to the same float however they were reached.
      for (const k of [...histograms[i].keys()].sort((a, b) => a - b)) {
        const n = histograms[i].get(k)!;
        sum += n * Math.log(counts.count[i] - k + this.alpha);
        features += n;
      }
      value[i] = sum - features * Math.log(counts.count[i] + 2 * this.alpha);
    }
    return value;
  }

  /**
   * The logarithms every score under `counts` at its current revision shares, taken once per
   * revision rather than six per score: the crawl's re-scoring after an online update asks
   * thousands of links under one revision. The very expressions taken per score before (`logPrior`
   * among them), so every score is the same to the last bit.
   */
  #constantsOf(counts: NbCounts): ScoreConstants {
    const cached = this.#constants;
    if (cached?.counts === counts && cached.revision === counts.revision) return cached;
    const { alpha } = this;
    // The multinomial denominators log(Tokens_i + α|V|) are the same for every feature.
    const words = this.form === 'mixed';
    const vocabulary = words ? counts.wordVocabulary : counts.features.size;
    const constants: ScoreConstants = {
      counts,
      revision: counts.revision,
      absent: this.form === 'multinomial' ? ZERO_PAIR : this.#logAbsentPerClass(counts),
      logPrior0: this.logPrior(0),
      logPrior1: this.logPrior(1),
      logDenominator0: Math.log((words ? counts.wordTokens[0] : counts.tokens[0]) + alpha * vocabulary),
      logDenominator1: Math.log((words ? counts.wordTokens[1] : counts.tokens[1]) + alpha * vocabulary),
    };
    this.#constants = constants;
    return constants;
  }
}

/** Counts whose log(k + α) `#logOf` keeps in a table (8 KiB): larger ones are rare. */
const LOG_TABLE_SIZE = 1024;

function logTable(alpha: number): Float64Array {
  const table = new Float64Array(LOG_TABLE_SIZE);
  for (let k = 0; k < LOG_TABLE_SIZE; k++) table[k] = Math.log(k + alpha);
  return table;
}

const ZERO_PAIR: Readonly<ClassPair> = [0, 0];

/**
 * Per revision of a model's counts: Σ_{j} log(1 − P(Fj|Ci)) over the Bernoulli features (zero in
 * the multinomial form), log P(Ci), and the multinomial denominators log(Tokens_i + α|V|).
 */
interface ScoreConstants {
  readonly counts: NbCounts;
  readonly revision: number;
  readonly absent: Readonly<ClassPair>;
  readonly logPrior0: number;
  readonly logPrior1: number;
  readonly logDenominator0: number;
  readonly logDenominator1: number;
}


/** log(e^a + e^b) without overflow: max + log1p(e^−|a−b|). */
export function logSumExp(a: number, b: number): number {
  const max = Math.max(a, b);
  return max + Math.log1p(Math.exp(-Math.abs(a - b)));
}

/** The `top` contributions by |weight|, largest first; ties by feature name, so the order is stable. */
function topContributions(contributions: Contribution[], top: number): Contribution[] {
  contributions.sort(
    (a, b) => Math.abs(b.weight) - Math.abs(a.weight) || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0),
  );
  return contributions.length > top ? contributions.slice(0, top) : contributions;
}
