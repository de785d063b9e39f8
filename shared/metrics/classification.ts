/**
 * Offline classification metrics: how Han et al. 2010 compare feature groups and link- vs
 * page-trained classifiers (§4.2, Tables 1–2), with 1 = on topic as the positive class.
 *
 * Every ratio whose denominator is 0 is defined as 0 (precision with no positive prediction,
 * recall with no positive example, F1 when precision + recall = 0, accuracy of no pairs), so the
 * result is always finite and serialisable to JSON.
 */

export interface ClassificationMetrics {
  /** tp / (tp + fp). */
  precision: number;
  /** tp / (tp + fn). */
  recall: number;
  /** 2·precision·recall / (precision + recall). */
  f1: number;
  /** (tp + tn) / n. */
  accuracy: number;
  n: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

/** a / b, with 0/0 (and any x/0) taken as 0. */
export function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

/** Confusion matrix and its ratios over (predicted, actual) label pairs. */
export function classificationMetrics(
  pairs: Iterable<{ predicted: 0 | 1; actual: 0 | 1 }>,
): ClassificationMetrics {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (const { predicted, actual } of pairs) {
    if (predicted === 1) {
      if (actual === 1) tp++;
      else fp++;
    } else if (actual === 1) fn++;
    else tn++;
  }
  const n = tp + fp + tn + fn;
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  const f1 = ratio(2 * precision * recall, precision + recall);
  return { precision, recall, f1, accuracy: ratio(tp + tn, n), n, tp, fp, tn, fn };
}
