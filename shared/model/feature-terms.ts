/**
 * What a feature's memo (`FeatureMemo.value`, one per feature name in a `FeatureList`) keeps for
 * the two classifiers that score a link's features one after the other (the nb crawl,
 * `companion/crawl/strategies/nb-strategy.ts`): the link classifier's terms
 * (`NaiveBayes.scoreSequence`) and the level classifier's (`LevelClassifier.posteriorSequence`).
 *
 * Each part keeps its terms under one revision of its counts, and a reference to the feature's
 * counts record with the epoch that keeps that reference valid: after an online update changes
 * the counts (a new revision), the terms are worked out again from the record, without looking
 * the feature up by name, while the record is still the feature's. The look-ups by name were
 * half of the time of the re-scoring that follows every update (issue 14's profile). The terms
 * are worked out by the very expressions used without a memo, so a score is the same to the bit.
 *
 * The link classifier makes the record (`memo.owner` is its counts); the level classifier adds
 * its part to a record it finds, and looks features up by name where there is none.
 */

/** The link classifier's part (`naive-bayes.ts`). Changed in place. */
export interface FeatureTerms {
  /** The feature's counts record; undefined: outside V. */
  entry: { count: [number, number]; occurrences: [number, number] } | undefined;
  /** `NbCounts.entered` (outside V) or `NbCounts.detached` (inside) when `entry` was looked up. */
  epoch: number;
  /** Its Bernoulli term, or the multinomial log θ_ji that a count n multiplies. */
  bernoulli: boolean;
  unit0: number;
  unit1: number;
  /** The level classifier's part, once it asked. */
  levels: LevelTerms | undefined;
}

/** The level classifier's part (`level-classifier.ts`). Changed in place. */
export interface LevelTerms {
  /** The occurrence table the terms come from, and its classifier's revision. */
  owner: unknown;
  revision: number;
  /** Occ(Fj, d) for every level, the table's record; undefined: outside the vocabulary. */
  entry: readonly number[] | undefined;
  /** The table's `entered` (outside) or `detached` (inside) epoch when `entry` was looked up. */
  epoch: number;
  /** log θ_jd for every level, under `revision`. */
  terms: number[];
}

/**
 * The epoch that keeps a record reference valid: for a feature found outside the vocabulary
 * (`entry` undefined), the table's `entered` (it stays outside until a feature enters); for one
 * found inside, its `detached` (its record stays the one the table holds until a feature is
 * deleted or a fork copies a record). A reference looked up at `epochOf(entry, …)` holds while
 * that number is unchanged.
 */
export function epochOf(entry: unknown, entered: number, detached: number): number {
  return entry === undefined ? entered : detached;
}

export function newFeatureTerms(): FeatureTerms {
  return { entry: undefined, epoch: 0, bernoulli: false, unit0: 0, unit1: 0, levels: undefined };
}
