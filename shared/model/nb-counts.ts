/**
 * The counts behind the Naive Bayes model (`naive-bayes.ts`): the source of truth from which every
 * probability is derived. Keeping whole-number counts, not probabilities, is what makes `add` and
 * `remove` exact inverses and a model read back from rows score bit for bit as it did.
 *
 * Symbols follow Han et al. 2010, eq. (2): Count_i is `count[i]`, Count(Fj, Ci) is
 * `features.get(Fj).count[i]`.
 */
import { isAttributeFeature, type FeatureVector } from '../features/types.ts';
import type { ClassPair, Label, NbFeatureRow, NbForm, NbHeaderRow } from './types.ts';
import { ForkedMap, forWriting, type CountTable } from './forked-map.ts';
import { shownNumber } from './json-error.ts';

/** One feature's counts per class. */
export interface FeatureCounts {
  /** Count(Fj, Ci): examples of class i containing the feature. */
  count: ClassPair;
  /** Occurrences of the feature over class i's examples. */
  occurrences: ClassPair;
}

/** A model's rows, as `NaiveBayes.toRows()` gives them and `NaiveBayes.fromRows()` takes them. */
export interface NbRows {
  header: NbHeaderRow;
  features: NbFeatureRow[];
}

const LABELS: readonly Label[] = [0, 1];
export const NB_FORMS: readonly NbForm[] = ['bernoulli', 'multinomial', 'mixed'];

/**
 * The event model of a new topic: `mixed`, multinomial over words and Bernoulli over a link's
 * attributes (its URL's tokens and directories, the lexicon flags), each event model on the
 * features it describes (`naive-bayes.ts`). Not seed 000's Bernoulli form over everything: on the
 * imbalanced labels pattern labeling gives (137 on-topic links among 10,023 on the crawl bench),
 * the absent-word terms tax the small class so hard that no link reaches P(+) 0.5. Not the plain
 * multinomial form: it takes no evidence from what a link lacks, so a link under none of the
 * on-topic directories but with the topic's words (Basic's "Fix 函数" for a Calc topic taught on
 * Calc's function pages) scores as on topic (`npm run bench -- lens` compares the three).
 */
export const DEFAULT_NB_FORM: NbForm = 'mixed';

/** A count histogram: k → how many features of a set have Count(F, Ci) = k (absent keys: none). */
export type CountHistogram = Map<number, number>;

export class NbCounts {
  /** Count_i: examples per class. */
  readonly count: ClassPair = [0, 0];
  /** Σ occurrences of all features per class. */
  readonly tokens: ClassPair = [0, 0];
  /** The vocabulary V: every feature with a count in either class. */
  readonly features: CountTable<FeatureCounts>;
  /**
   * countHistogram[i]: how many features of V have each Count(F, Ci). Σ_F log(1 − P(F|Ci))
   * depends on the features only through these numbers, so the Bernoulli form refreshes it in
   * O(distinct counts), not O(|V|) (nor O(Count_i), whatever a file claims), summing in one order
   * however the counts were reached. `attributeHistogram`: the same over attribute features
   * only, for the mixed form.
   */
  readonly countHistogram: [CountHistogram, CountHistogram] = [new Map(), new Map()];
  readonly attributeHistogram: [CountHistogram, CountHistogram] = [new Map(), new Map()];
  /** Σ occurrences of word (non-attribute) features per class: the mixed form's multinomial denominator. */
  readonly wordTokens: ClassPair = [0, 0];
  /** How many features of V are words: |V_W|. */
  wordVocabulary = 0;
  /** Bumped on every change, so caches derived from the counts know when they are stale. */
  revision = 0;
  /**
   * Bumped whenever a feature enters V. A scorer that found a feature outside V
   * (`NaiveBayes.scoreSequence`'s memo) knows it is still outside while this is unchanged.
   */
  entered = 0;
  /** Features deleted from V (`remove` to zero counts). */
  #deleted = 0;

  constructor(features: CountTable<FeatureCounts> = new Map()) {
    this.features = features;
  }

  /**
   * Counts equal to these that share their feature table, copying a feature's counts only when
   * the fork changes them (`forked-map.ts`). These counts must not change while forks exist.
   */
  fork(): NbCounts {
    const fork = new NbCounts(new ForkedMap(this.features, copyFeatureCounts));
    for (const i of LABELS) {
      fork.count[i] = this.count[i];
      fork.tokens[i] = this.tokens[i];
      fork.wordTokens[i] = this.wordTokens[i];
      for (const [k, n] of this.countHistogram[i]) fork.countHistogram[i].set(k, n);
      for (const [k, n] of this.attributeHistogram[i]) fork.attributeHistogram[i].set(k, n);
    }
    fork.wordVocabulary = this.wordVocabulary;
    return fork;
  }

  get exampleCount(): number {
    return this.count[0] + this.count[1];
  }

  /**
   * Changes whenever a feature's counts record stops being the one `features` holds for it: the
   * feature deleted, or its record copied by a fork to be changed (`ForkedMap.copies`). Records
   * are otherwise changed in place, so a record kept by reference (`NaiveBayes.scoreSequence`'s
   * memo) holds its feature's current counts while this is unchanged, and the feature need not be
   * looked up again by name after each `add` (a crawl's online update re-scores thousands of rows
   * right after one; the look-ups were half of that scoring's time, issue 14).
   */
  get detached(): number {
    const { features } = this;
    return this.#deleted + (features instanceof ForkedMap ? features.copies : 0);
  }

  /** Adds one example: its features' counts and its class's count go up. */
  add(x: FeatureVector, y: Label): void {
    checkLabel(y);
    const present = presentFeatures(x);
    for (const [feature, n] of present) {
      const attribute = isAttributeFeature(feature);
      let counts = forWriting(this.features, feature);
      if (!counts) {
        counts = { count: [0, 0], occurrences: [0, 0] };
        this.features.set(feature, counts);
        this.#enter(attribute, counts, +1);
        this.entered++;
      }
      this.#move(y, attribute, counts.count[y], counts.count[y] + 1);
      counts.count[y] += 1;
      counts.occurrences[y] += n;
      this.tokens[y] += n;
      if (!attribute) this.wordTokens[y] += n;
    }
    this.count[y] += 1;
    this.revision++;
  }

  /**
   * The exact inverse of `add`. Checks everything first and throws, changing nothing, when the
   * example cannot have been added (a count would go below zero).
   */
  remove(x: FeatureVector, y: Label): void {
    checkLabel(y);
    const present = presentFeatures(x);
    if (this.count[y] < 1) throw new Error(`NaiveBayes.remove: class ${y} has no examples to remove`);
    for (const [feature, n] of present) {
      const counts = this.features.get(feature);
      if (!counts || counts.count[y] < 1 || counts.occurrences[y] < n) {
        throw new Error(`NaiveBayes.remove: feature "${feature}" (×${n}) was never added to class ${y}`);
      }
    }
    for (const [feature, n] of present) {
      const attribute = isAttributeFeature(feature);
      const counts = forWriting(this.features, feature)!;
      this.#move(y, attribute, counts.count[y], counts.count[y] - 1);
      counts.count[y] -= 1;
      counts.occurrences[y] -= n;
      this.tokens[y] -= n;
      if (!attribute) this.wordTokens[y] -= n;
      if (counts.count[0] === 0 && counts.count[1] === 0) {
        this.#enter(attribute, counts, -1);
        this.features.delete(feature);
        this.#deleted++;
      }
    }
    this.count[y] -= 1;
    this.revision++;
  }

  /** The header and feature rows (features in code-unit order, so equal counts give equal rows). */
  toRows(topic: string, form: NbForm, alpha: number, savedAt: number): NbRows {
    const header: NbHeaderRow = {
      topic,
      rowsVersion: 1,
      form,
      alpha,
      count: [...this.count],
      tokens: [...this.tokens],
      vocabularySize: this.features.size,
      savedAt,
    };
    const names = [...this.features.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const features = names.map((feature): NbFeatureRow => {
      const counts = this.features.get(feature)!;
      return { topic, feature, count: [...counts.count], occurrences: [...counts.occurrences] };
    });
    return { header, features };
  }

  /** Counts from rows, every invariant checked: a bad row throws an Error naming it. */
  static fromRows(header: NbHeaderRow, rows: Iterable<NbFeatureRow>): NbCounts {
    const counts = new NbCounts();
    counts.count[0] = header.count[0];
    counts.count[1] = header.count[1];
    const tokens: ClassPair = [0, 0];
    for (const row of rows) {
      const where = `feature row "${String(row?.feature)}"`;
      if (typeof row !== 'object' || row === null || typeof row.feature !== 'string') {
        throw new Error(`model rows: a feature row has no "feature" name`);
      }
      if (row.topic !== header.topic) throw new Error(`model rows: ${where} belongs to topic "${String(row.topic)}", not "${header.topic}"`);
      if (counts.features.has(row.feature)) throw new Error(`model rows: ${where} appears twice`);
      checkPair(row.count, `${where}: "count"`);
      checkPair(row.occurrences, `${where}: "occurrences"`);
      for (const i of LABELS) {
        if (row.count[i] > header.count[i]) {
          throw new Error(`model rows: ${where}: count ${row.count[i]} in class ${i} exceeds the class's ${header.count[i]} examples`);
        }
        if (row.occurrences[i] < row.count[i]) {
          throw new Error(`model rows: ${where}: ${row.occurrences[i]} occurrences in class ${i} but ${row.count[i]} examples contain it`);
        }
        tokens[i] += row.occurrences[i];
      }
      if (row.count[0] === 0 && row.count[1] === 0) throw new Error(`model rows: ${where} has no count in either class`);
      const featureCounts: FeatureCounts = { count: [row.count[0], row.count[1]], occurrences: [row.occurrences[0], row.occurrences[1]] };
      counts.features.set(row.feature, featureCounts);
      counts.#enter(isAttributeFeature(row.feature), featureCounts, +1);
    }
    if (counts.features.size !== header.vocabularySize) {
      throw new Error(`model rows: the header says ${header.vocabularySize} features but ${counts.features.size} rows were given`);
    }
    for (const i of LABELS) {
      if (tokens[i] !== header.tokens[i]) {
        throw new Error(`model rows: the header says ${header.tokens[i]} tokens in class ${i} but the features add up to ${tokens[i]}`);
      }
    }
    counts.tokens[0] = tokens[0];
    counts.tokens[1] = tokens[1];
    return counts;
  }

  /** Moves one feature of class i's histograms from bucket `from` to bucket `to`. */
  #move(i: Label, attribute: boolean, from: number, to: number): void {
    bump(this.countHistogram[i], from, -1);
    bump(this.countHistogram[i], to, +1);
    if (attribute) {
      bump(this.attributeHistogram[i], from, -1);
      bump(this.attributeHistogram[i], to, +1);
    }
  }

  /** A feature with `counts` enters V (`by` +1) or leaves it (−1): histograms and word totals follow. */
  #enter(attribute: boolean, counts: FeatureCounts, by: 1 | -1): void {
    for (const i of LABELS) {
      bump(this.countHistogram[i], counts.count[i], by);
      if (attribute) bump(this.attributeHistogram[i], counts.count[i], by);
      else this.wordTokens[i] += by * counts.occurrences[i];
    }
    if (!attribute) this.wordVocabulary += by;
  }
}

/** Checks a header row's own fields (the counts are checked against the features in `fromRows`). */
export function checkHeader(header: unknown): asserts header is NbHeaderRow {
  if (typeof header !== 'object' || header === null) throw new Error('model rows: the header is missing');
  const h = header as Partial<NbHeaderRow>;
  if (typeof h.topic !== 'string') throw new Error('model rows: the header has no "topic"');
  if (h.rowsVersion !== 1) throw new Error(`model rows: version ${String(h.rowsVersion)} is not supported (expected 1)`);
  if (!NB_FORMS.includes(h.form as NbForm)) throw new Error(`model rows: "form" must be ${NB_FORMS.map((f) => `"${f}"`).join(', ')}, got ${JSON.stringify(h.form)}`);
  if (typeof h.alpha !== 'number' || !(h.alpha > 0) || !Number.isFinite(h.alpha)) {
    throw new Error(`model rows: "alpha" must be a finite number > 0, got ${shownNumber(h.alpha)}`);
  }
  checkPair(h.count, 'the header\'s "count"');
  checkPair(h.tokens, 'the header\'s "tokens"');
  if (!isCount(h.vocabularySize)) throw new Error('model rows: the header\'s "vocabularySize" must be a whole number ≥ 0');
}

/**
 * The features with a count > 0, checked: counts must be whole numbers ≥ 0 so that `remove`
 * undoes `add` exactly (no floating-point residue) and the Bernoulli form's presence is clear.
 */
function presentFeatures(x: FeatureVector): [string, number][] {
  const present: [string, number][] = [];
  for (const [feature, n] of x) {
    if (!isCount(n)) throw new Error(`NaiveBayes: feature "${feature}" has count ${String(n)}; counts must be whole numbers ≥ 0`);
    if (n > 0) present.push([feature, n]);
  }
  return present;
}

function checkLabel(y: unknown): asserts y is Label {
  if (y !== 0 && y !== 1) throw new Error(`NaiveBayes: label must be 0 or 1, got ${JSON.stringify(y)}`);
}

function checkPair(pair: unknown, what: string): asserts pair is ClassPair {
  if (!Array.isArray(pair) || pair.length !== 2 || !isCount(pair[0]) || !isCount(pair[1])) {
    throw new Error(`model rows: ${what} must be two whole numbers ≥ 0, got ${JSON.stringify(pair)}`);
  }
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function copyFeatureCounts(counts: FeatureCounts): FeatureCounts {
  return { count: [counts.count[0], counts.count[1]], occurrences: [counts.occurrences[0], counts.occurrences[1]] };
}

function bump(histogram: CountHistogram, k: number, by: number): void {
  const n = (histogram.get(k) ?? 0) + by;
  if (n === 0) histogram.delete(k);
  else histogram.set(k, n);
}
