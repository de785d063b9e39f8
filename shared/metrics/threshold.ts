/**
 * Threshold calibration: the P(+) at or above which a link counts as on topic, chosen on
 * held-out examples instead of fixed at 0.5 (issue 12).
 *
 * Naive Bayes probabilities are badly calibrated (its independence assumption pushes them
 * towards 0 and 1) and the classes are imbalanced (one on-topic link in eight, or fewer), so 0.5
 * is an arbitrary point on the curve. Two ways to choose one:
 *   - `f1`: the cut that maximises F1 = 2·tp / (2·tp + fp + fn) on the held-out examples;
 *   - `precision`: the lowest cut whose precision tp / (tp + fp) reaches the target (the most
 *     recall for that precision), or the most precise cut when none reaches it.
 *
 * Candidates are the cuts between two neighbouring distinct scores (sorted high to low, a cut
 * after the k-th accepts the k highest). The threshold returned lies halfway between the lowest
 * accepted and the highest rejected score, in probability: not in log-odds, because Naive Bayes
 * scores run to 1e-30 and beyond, and when the held-out classes separate, the log-odds midpoint
 * of 0.9 and 1e-30 (≈ 1e-14) would light every link the examples say nothing about, while the
 * probability midpoint (0.45) keeps a highlight meaning "more likely on topic than the examples
 * off topic ever were". The result is kept in [1e-12, 1 − 1e-12], inside (0, 1).
 *
 * With the figures at that cut comes balanced accuracy, (recall + specificity) / 2, which, unlike
 * accuracy, a model answering "off topic" always cannot push above 0.5.
 */
import { ratio } from './classification.ts';

export type ThresholdTarget = { kind: 'f1' } | { kind: 'precision'; precision: number };

export interface ScoredExample {
  /** P(+ | link) from a model that did not train on this example. */
  p: number;
  label: 0 | 1;
}

export interface Calibration {
  /** P(+) at or above which a link is on topic; in (0, 1). */
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
  /** (recall + tn / (tn + fp)) / 2. */
  balancedAccuracy: number;
  /** Held-out examples the figures are measured on. */
  n: number;
  /** How many of them are on topic. */
  positives: number;
  /** False when a precision target was asked for and no cut reaches it (the most precise one is given). */
  reached: boolean;
}

const EPSILON = 1e-12;

/**
 * The calibrated threshold and its figures, or null when the examples cannot say (none on topic
 * or none off topic: every cut is as good as any other).
 */
export function calibrateThreshold(examples: readonly ScoredExample[], target: ThresholdTarget = { kind: 'f1' }): Calibration | null {
  if (target.kind === 'precision' && !(target.precision > 0 && target.precision < 1)) {
    throw new RangeError(`a target precision lies between 0 and 1 (exclusive), got ${target.precision}`);
  }
  const n = examples.length;
  const positives = examples.reduce((sum, example) => sum + example.label, 0);
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return null;
  const sorted = [...examples].sort((a, b) => b.p - a.p);

  interface Cut { k: number; tp: number; fp: number }
  const cuts: Cut[] = [];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k < n; k++) {
    if (sorted[k]!.label === 1) tp++;
    else fp++;
    // A cut only between two different scores: equal scores are accepted or rejected together.
    if (k === n - 1 || sorted[k + 1]!.p < sorted[k]!.p) cuts.push({ k: k + 1, tp, fp });
  }
  const f1Of = (cut: Cut) => ratio(2 * cut.tp, 2 * cut.tp + cut.fp + (positives - cut.tp));
  const precisionOf = (cut: Cut) => ratio(cut.tp, cut.tp + cut.fp);

  let best: Cut;
  let reached = true;
  if (target.kind === 'f1') {
    // Ties go to the higher cut (fewer links lit for the same F1).
    best = cuts.reduce((a, b) => (f1Of(b) > f1Of(a) ? b : a));
  } else {
    const enough = cuts.filter((cut) => precisionOf(cut) >= target.precision);
    if (enough.length > 0) best = enough[enough.length - 1]!;
    else {
      reached = false;
      best = cuts.reduce((a, b) => (precisionOf(b) > precisionOf(a) ? b : a));
    }
  }

  const lowestAccepted = sorted[best.k - 1]!.p;
  const highestRejected = best.k < n ? sorted[best.k]!.p : undefined;
  const threshold =
    highestRejected === undefined
      ? Math.max(EPSILON, Math.min(lowestAccepted, 1 - EPSILON))
      : (lowestAccepted + highestRejected) / 2;
  const recall = ratio(best.tp, positives);
  const specificity = ratio(negatives - best.fp, negatives);
  return {
    threshold: Math.min(1 - EPSILON, Math.max(EPSILON, threshold)),
    precision: precisionOf(best),
    recall,
    f1: f1Of(best),
    balancedAccuracy: (recall + specificity) / 2,
    n,
    positives,
    reached,
  };
}
