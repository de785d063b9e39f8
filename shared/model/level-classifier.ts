/**
 * The level classifier: a link's *future value* (issue 11). Where the link classifier
 * (`naive-bayes.ts`) says how likely a link leads straight to an on-topic page, this one says
 * how far from the topic the link's target lies, so a crawl started a few hops away (a portal,
 * a directory) can tell which links lead towards the topic before any of them is on it.
 *
 * Sources: seed 001 (Ma 2010, §1): the training phase computes each link's Q value, bins the
 * values into classes, trains a Naive Bayes classifier on each class's link text, and at crawl
 * time "uses the probability of the link falling in each class as the weight to compute its Q
 * value". Rennie & McCallum 1999 ("Using reinforcement learning to spider the web efficiently")
 * introduced those bins; Diligenti et al. 2000 ("Focused crawling using context graphs") train
 * one class per distance layer to the target pages; ACHE's `FORWARD_CLASSIFIER_LEVELS` does the
 * same with a multi-class link classifier. Here the classes are distances:
 *
 *   level d ∈ {0, …, L−1}: the link's target is d hops from the nearest on-topic page (level 0 =
 *   the target is on topic); the last level means "L−1 hops or more, or never".
 *
 * Model: multinomial Naive Bayes over the link classifier's features, each level's word
 * distribution smoothed towards the distribution pooled over all levels (a Dirichlet prior whose
 * base measure is the pooled distribution: MacKay & Peto 1995, "A hierarchical Dirichlet
 * language model"; Zhai & Lafferty 2001 for the same smoothing in retrieval), with the total
 * pseudo-count Laplace would add, μ = α|V|:
 *
 *   q_j    = (Σ_d Occ(Fj, d) + α) / (Σ_d Tokens_d + α|V|)          the pooled distribution
 *   θ_jd   = (Occ(Fj, d) + μ·q_j) / (Tokens_d + μ)
 *   P(d)   = (Count_d + α) / (N + Lα)
 *   P(d|x) = exp(logJoint_d − logSumExp_d' logJoint_d'),  logJoint_d = log P(d) + Σ_j x_j log θ_jd
 *
 * Why not Laplace's uniform α per feature: levels differ in size by orders of magnitude (one
 * link at level 1 beside hundreds at level 3+ is common), and under Laplace a feature a small
 * level never saw still gets α / (Tokens_d + α|V|), far more than a large level gives a feature
 * it saw once, so every little-known feature (a calendar's dates, a host's name) votes for the
 * smallest level and a crawl follows the calendar. Smoothed towards the pool, a level that saw
 * little says little: unseen features get about their pooled rate in it.
 *
 * Expected discounted reward (the Q value of seed 001's eq. (2), Rennie & McCallum's
 * "future reward discounted by γ per hop"), a reward of 1 for reaching an on-topic page:
 *
 *   Q(link) = Σ_{d=0}^{L−2} P(d | link) · γ^d
 *
 * The last level earns nothing: "L−1 or more hops, or no path seen" promises no reward within
 * the horizon the training graph could show. Q lies in [0, 1].
 *
 * Counts are the source of truth (as in `nb-counts.ts`): `add` / `remove` are exact inverses, so
 * a crawl that relearns a link's level as its graph grows moves the example between classes with
 * `remove` + `add` and ends with the counts a refit would give.
 */
import { presentFeatures, type FeatureSequence } from '../features/feature-list.ts';
import { epochOf, type FeatureTerms, type LevelTerms } from './feature-terms.ts';
import type { FeatureVector } from '../features/types.ts';
import type { LevelFeatureRow, LevelHeaderRow } from './types.ts';
import { ForkedMap, forWriting, type CountTable } from './forked-map.ts';
import { shownNumber } from './json-error.ts';

/**
 * Features whose terms a classifier keeps between two changes of its counts (`#scoring`): about
 * 1.3 MB at most (a key shared with the caller's list, L numbers), for a crawl's frontier head and
 * the links found meanwhile; past that, features are worked out each time, as before.
 */
const MAX_KEPT_TERMS = 16_384;

/** What the posteriors of one revision of the counts share (`LevelClassifier.#scoring`). */
interface LevelScoring {
  revision: number;
  /** Whether the classifier has examples: untrained, the posterior is the prior alone. */
  trained: boolean;
  /** log P(d) = log(Count_d + α) − log(N + Lα). */
  logPrior: number[];
  /** log θ_jd for each level d, or undefined for a feature outside the vocabulary. */
  terms(feature: string): readonly number[] | undefined;
  /** `terms`, through the feature's memo record (`feature-terms.ts`), kept there. */
  termsOf(record: FeatureTerms, feature: string): readonly number[] | undefined;
}

/** L of a new level classifier: levels 0, 1, 2 and "3 or more". */
export const DEFAULT_LEVELS = 4;

/** γ, the discount per hop of the expected reward. */
export const DEFAULT_GAMMA = 0.5;

export interface LevelClassifierOptions {
  /** L, the number of levels (≥ 2). Default 4. */
  levels?: number;
  /** Pseudo-count α (> 0): the pooled prior's mass is α|V| (see the file header). Default 1. */
  alpha?: number;
}

export interface LevelExample {
  features: FeatureVector;
  level: number;
}

export interface LevelRows {
  header: LevelHeaderRow;
  features: LevelFeatureRow[];
}

export class LevelClassifier {
  readonly levels: number;
  readonly alpha: number;
  /** Count_d: examples per level. */
  #count: number[];
  /** Tokens_d: Σ occurrences per level. */
  #tokens: number[];
  /** Occ(Fj, d) per feature. */
  #occurrences: CountTable<number[]> = new Map<string, number[]>();
  /** Changes whenever the counts do: what `#scoring` derived from them holds while it is the same. */
  #revision = 0;
  #scored: LevelScoring | undefined;
  /** Bumped whenever a feature enters the vocabulary (see `NbCounts.entered`). */
  #entered = 0;
  /** Features deleted from the vocabulary (`remove` to zero occurrences). */
  #deleted = 0;

  constructor(options: LevelClassifierOptions = {}) {
    const levels = options.levels ?? DEFAULT_LEVELS;
    const alpha = options.alpha ?? 1;
    if (!Number.isInteger(levels) || levels < 2 || levels > 16) throw new Error(`LevelClassifier: levels must be a whole number from 2 to 16, got ${String(levels)}`);
    if (!(alpha > 0) || !Number.isFinite(alpha)) throw new Error(`LevelClassifier: alpha must be a finite number > 0, got ${String(alpha)}`);
    this.levels = levels;
    this.alpha = alpha;
    this.#count = new Array<number>(levels).fill(0);
    this.#tokens = new Array<number>(levels).fill(0);
  }

  /**
   * Changes whenever the counts do (`add`, `remove`, `fit`, `assign`), and never comes back to a
   * value it had: a posterior worked out under one revision holds while it is the same. The nb
   * crawl keeps a link's future value across online updates that moved no level (`nb-strategy.ts`).
   */
  get revision(): number {
    return this.#revision;
  }

  get exampleCount(): number {
    return this.#count.reduce((a, b) => a + b, 0);
  }

  /**
   * A classifier equal to this one that shares its counts until it changes them
   * (`forked-map.ts`), as `NaiveBayes.fork`. This one must not change while forks exist.
   */
  fork(): LevelClassifier {
    const fork = new LevelClassifier({ levels: this.levels, alpha: this.alpha });
    fork.#count = [...this.#count];
    fork.#tokens = [...this.#tokens];
    fork.#occurrences = new ForkedMap(this.#occurrences, (occ) => [...occ]);
    return fork;
  }

  /** Takes `other`'s counts as its own (same L and α), as `NaiveBayes.assign`; `other` must not be used afterwards. */
  assign(other: LevelClassifier): void {
    if (other.levels !== this.levels || other.alpha !== this.alpha) {
      throw new Error(`LevelClassifier.assign: ${other.levels} levels with alpha ${other.alpha} cannot replace ${this.levels} with alpha ${this.alpha}`);
    }
    this.#count = other.#count;
    this.#tokens = other.#tokens;
    this.#occurrences = other.#occurrences;
    this.#revision++;
  }

  /** Count_d for every level (a copy). */
  get levelCounts(): number[] {
    return [...this.#count];
  }

  get vocabularySize(): number {
    return this.#occurrences.size;
  }

  /** Count_d += 1, Occ(Fj, d) += x_j, Tokens_d += x_j (seed 001's per-bin Naive Bayes). */
  add(x: FeatureVector, level: number): void {
    this.#checkLevel(level);
    for (const [feature, n] of present(x)) {
      let occ = forWriting(this.#occurrences, feature);
      if (!occ) {
        occ = new Array<number>(this.levels).fill(0);
        this.#occurrences.set(feature, occ);
        this.#entered++;
      }
      occ[level]! += n;
      this.#tokens[level]! += n;
    }
    this.#count[level]! += 1;
    this.#revision++;
  }

  /** The exact inverse of `add`; throws, changing nothing, if the example cannot have been added. */
  remove(x: FeatureVector, level: number): void {
    this.#checkLevel(level);
    const features = present(x);
    if (this.#count[level]! < 1) throw new Error(`LevelClassifier.remove: level ${level} has no examples to remove`);
    for (const [feature, n] of features) {
      const occ = this.#occurrences.get(feature);
      if (!occ || occ[level]! < n) throw new Error(`LevelClassifier.remove: feature "${feature}" (×${n}) was never added to level ${level}`);
    }
    for (const [feature, n] of features) {
      const occ = forWriting(this.#occurrences, feature)!;
      occ[level]! -= n;
      this.#tokens[level]! -= n;
      if (occ.every((k) => k === 0)) {
        this.#occurrences.delete(feature);
        this.#deleted++;
      }
    }
    this.#count[level]! -= 1;
    this.#revision++;
  }

  /** Counts from zero over the examples, by the same code as `add`. */
  fit(examples: Iterable<LevelExample>): this {
    const fresh = new LevelClassifier({ levels: this.levels, alpha: this.alpha });
    for (const { features, level } of examples) fresh.add(features, level);
    this.#count = fresh.#count;
    this.#tokens = fresh.#tokens;
    this.#occurrences = fresh.#occurrences;
    this.#revision++;
    return this;
  }

  /**
   * P(d | x) for every level: logJoint_d = log P(d) + Σ_j x_j log θ_jd, normalised with one
   * log-sum-exp. Features outside the vocabulary carry no evidence and are ignored. Untrained,
   * the prior alone (uniform).
   */
  posterior(x: FeatureVector): number[] {
    return this.posteriorSequence(presentFeatures(x));
  }

  /**
   * `posterior` of the example whose present features (count > 0) are `x`, in order: what
   * `posterior` of a vector with those entries gives, to the last bit (the same sums in the same
   * order). A crawl lists a link's features once (`FeatureList`) for both classifiers.
   */
  posteriorSequence(x: Pick<FeatureSequence, 'length' | 'names' | 'counts' | 'memos'>): number[] {
    const L = this.levels;
    const scoring = this.#scoring();
    const logJoint = scoring.logPrior.slice();
    if (scoring.trained) {
      const { names, counts, memos } = x;
      for (let j = 0; j < x.length; j++) {
        // Through the feature's memo record where the link classifier made one (`feature-terms.ts`).
        const record = memos?.[j]?.value as FeatureTerms | undefined;
        const terms = record === undefined ? scoring.terms(names[j]!) : scoring.termsOf(record, names[j]!);
        if (terms === undefined) continue;
        const count = counts[j]!;
        for (let d = 0; d < L; d++) logJoint[d]! += count * terms[d]!;
      }
    }
    let max = -Infinity;
    for (const v of logJoint) if (v > max) max = v;
    let sum = 0;
    for (let d = 0; d < L; d++) sum += Math.exp(logJoint[d]! - max);
    const logEvidence = max + Math.log(sum);
    return logJoint.map((v) => Math.exp(v - logEvidence));
  }

  /** Q(link) = Σ_{d<L−1} P(d | x) · γ^d (seed 001 eq. (2); Rennie & McCallum 1999). */
  futureValue(x: FeatureVector, gamma: number = DEFAULT_GAMMA): number {
    return expectedReward(this.posterior(x), gamma);
  }

  /** The counts as rows: a header (Count_d, Tokens_d, L, α) and one row per feature, in code-unit order. */
  toRows(topic = '', savedAt = Date.now()): LevelRows {
    const names = [...this.#occurrences.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      header: {
        topic,
        rowsVersion: 1,
        levels: this.levels,
        alpha: this.alpha,
        count: [...this.#count],
        tokens: [...this.#tokens],
        vocabularySize: names.length,
        savedAt,
      },
      features: names.map((feature) => ({ topic, feature, occurrences: [...this.#occurrences.get(feature)!] })),
    };
  }

  /** The classifier whose `toRows()` gave these rows, every invariant checked (an Error names a bad row). */
  static fromRows(rows: LevelRows): LevelClassifier {
    const header = rows?.header as Partial<LevelHeaderRow> | undefined;
    if (typeof header !== 'object' || header === null) throw new Error('level rows: the header is missing');
    if (header.rowsVersion !== 1) throw new Error(`level rows: version ${String(header.rowsVersion)} is not supported (expected 1)`);
    const L = header.levels;
    if (typeof L !== 'number' || !Number.isInteger(L) || L < 2 || L > 16) throw new Error(`level rows: "levels" must be a whole number from 2 to 16, got ${JSON.stringify(L)}`);
    if (typeof header.alpha !== 'number' || !(header.alpha > 0) || !Number.isFinite(header.alpha)) {
      throw new Error(`level rows: "alpha" must be a finite number > 0, got ${shownNumber(header.alpha)}`);
    }
    const model = new LevelClassifier({ levels: L, alpha: header.alpha });
    checkCounts(header.count, L, 'the header\'s "count"');
    checkCounts(header.tokens, L, 'the header\'s "tokens"');
    if (!Array.isArray(rows.features)) throw new Error('level rows: "features" must be a list');
    const tokens = new Array<number>(L).fill(0);
    for (const row of rows.features) {
      const where = `level feature row "${String(row?.feature)}"`;
      if (typeof row !== 'object' || row === null || typeof row.feature !== 'string') throw new Error('level rows: a feature row has no "feature" name');
      if (row.topic !== header.topic) throw new Error(`level rows: ${where} belongs to topic "${String(row.topic)}", not "${String(header.topic)}"`);
      if (model.#occurrences.has(row.feature)) throw new Error(`level rows: ${where} appears twice`);
      checkCounts(row.occurrences, L, `${where}: "occurrences"`);
      if (row.occurrences.every((k) => k === 0)) throw new Error(`level rows: ${where} has no occurrence in any level`);
      row.occurrences.forEach((k, d) => (tokens[d]! += k));
      model.#occurrences.set(row.feature, [...row.occurrences]);
    }
    if (model.#occurrences.size !== header.vocabularySize) {
      throw new Error(`level rows: the header says ${String(header.vocabularySize)} features but ${model.#occurrences.size} rows were given`);
    }
    for (let d = 0; d < L; d++) {
      if (tokens[d] !== header.tokens![d]) throw new Error(`level rows: the header says ${header.tokens![d]} tokens in level ${d} but the features add up to ${tokens[d]}`);
    }
    model.#count = [...header.count!];
    model.#tokens = tokens;
    return model;
  }

  /**
   * What every posterior of the current counts shares: log P(d), and each feature's terms
   * log θ_jd = log(Occ(Fj, d) + μ·q_j) − log(Tokens_d + μ), worked out the first time the feature
   * is asked about and kept until the counts change (a crawl asks about the same features in
   * link after link between two online updates). The very expressions `posteriorSequence` used
   * inline, so the sums are the same to the last bit.
   */
  #scoring(): LevelScoring {
    const scored = this.#scored;
    if (scored !== undefined && scored.revision === this.#revision) return scored;
    const L = this.levels;
    const { alpha } = this;
    const n = this.exampleCount;
    const logPrior = new Array<number>(L);
    for (let d = 0; d < L; d++) logPrior[d] = Math.log(this.#count[d]! + alpha) - Math.log(n + L * alpha);
    const mu = alpha * this.#occurrences.size;
    const total = this.#tokens.reduce((a, b) => a + b, 0);
    const logDenominator = this.#tokens.map((tokens) => Math.log(tokens + mu));
    const occurrences = this.#occurrences;
    const revision = this.#revision;
    const workOut = (occ: readonly number[], value: number[]): number[] => {
      let pooled = alpha;
      for (let d = 0; d < L; d++) pooled += occ[d]!;
      const prior = (mu * pooled) / (total + mu);
      for (let d = 0; d < L; d++) value[d] = Math.log(occ[d]! + prior) - logDenominator[d]!;
      return value;
    };
    const kept = new Map<string, readonly number[] | null>();
    const terms = (feature: string): readonly number[] | undefined => {
      const known = kept.get(feature);
      if (known !== undefined) return known ?? undefined;
      const occ = occurrences.get(feature);
      const value = occ ? workOut(occ, new Array<number>(L)) : null;
      if (kept.size < MAX_KEPT_TERMS) kept.set(feature, value);
      return value ?? undefined;
    };
    // Read once per revision: a record's reference holds while its epoch is unchanged (`NbCounts.detached`).
    const entered = this.#entered;
    const detached = this.#detached;
    const termsOf = (record: FeatureTerms, feature: string): readonly number[] | undefined => {
      let part: LevelTerms | undefined = record.levels;
      if (part === undefined || part.owner !== occurrences) {
        part = record.levels = { owner: occurrences, revision: -1, entry: undefined, epoch: 0, terms: new Array<number>(L) };
        part.entry = occurrences.get(feature);
        part.epoch = epochOf(part.entry, entered, detached);
      } else if (part.revision === revision) {
        return part.entry === undefined ? undefined : part.terms;
      } else if (part.epoch !== epochOf(part.entry, entered, detached)) {
        part.entry = occurrences.get(feature);
        part.epoch = epochOf(part.entry, entered, detached);
      }
      part.revision = revision;
      return part.entry === undefined ? undefined : workOut(part.entry, part.terms);
    };
    return (this.#scored = { revision, trained: n > 0, logPrior, terms, termsOf });
  }

  /**
   * Changes whenever a feature's occurrence record stops being the one the table holds for it
   * (deleted, or copied by a fork to be changed), as `NbCounts.detached`.
   */
  get #detached(): number {
    const occurrences = this.#occurrences;
    return this.#deleted + (occurrences instanceof ForkedMap ? occurrences.copies : 0);
  }

  #checkLevel(level: number): void {
    if (!Number.isInteger(level) || level < 0 || level >= this.levels) {
      throw new Error(`LevelClassifier: level must be a whole number from 0 to ${this.levels - 1}, got ${JSON.stringify(level)}`);
    }
  }
}

/**
 * Σ_{d=1}^{L−2} P(d | d ≥ 1) · γ^d: the expected discounted reward of a target that is not on topic
 * itself, from a posterior over levels (level 0 taken out and the rest renormalised). The nb
 * strategy adds the link classifier's P(+) for level 0 (`companion/crawl/strategies/nb-strategy.ts`).
 */
export function futureReward(posterior: readonly number[], gamma: number): number {
  if (!(gamma >= 0 && gamma <= 1)) throw new RangeError(`futureReward: gamma must lie in [0, 1], got ${gamma}`);
  const rest = 1 - posterior[0]!;
  if (!(rest > 0)) return 0;
  let value = 0;
  let discount = gamma;
  for (let d = 1; d < posterior.length - 1; d++) {
    value += posterior[d]! * discount;
    discount *= gamma;
  }
  return value / rest;
}

/** Σ_{d<L−1} P(d) · γ^d: the expected discounted reward of a posterior over levels; γ in [0, 1]. */
export function expectedReward(posterior: readonly number[], gamma: number): number {
  if (!(gamma >= 0 && gamma <= 1)) throw new RangeError(`expectedReward: gamma must lie in [0, 1], got ${gamma}`);
  let value = 0;
  let discount = 1;
  for (let d = 0; d < posterior.length - 1; d++) {
    value += posterior[d]! * discount;
    discount *= gamma;
  }
  return value;
}

function present(x: FeatureVector): [string, number][] {
  const out: [string, number][] = [];
  for (const [feature, n] of x) {
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new Error(`LevelClassifier: feature "${feature}" has count ${String(n)}; counts must be whole numbers ≥ 0`);
    if (n > 0) out.push([feature, n]);
  }
  return out;
}

function checkCounts(value: unknown, length: number, what: string): asserts value is number[] {
  if (!Array.isArray(value) || value.length !== length || !value.every((k) => typeof k === 'number' && Number.isSafeInteger(k) && k >= 0)) {
    throw new Error(`level rows: ${what} must be ${length} whole numbers ≥ 0, got ${JSON.stringify(value)}`);
  }
}
