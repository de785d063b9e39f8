/**
 * `eval --pages`: how well a page classifier tells on-topic pages, by seed 004 §4.5.2's measures:
 *
 *     P = a / (a + b),   R = a / (a + c),   F = 2·P·R / (P + R)
 *
 * a on-topic pages judged on topic, b off-topic pages judged on topic, c on-topic pages judged
 * off topic (`shared/metrics/classification.ts`). A page is judged on topic when its relevance
 * reaches the model's threshold.
 */
import { classificationMetrics, type ClassificationMetrics } from '../../shared/metrics/classification.ts';
import type { PageClassifier } from './page-classifier.ts';
import type { LabeledPages } from './train-pages.ts';

export function evaluatePages(classifier: PageClassifier, pages: LabeledPages['pages']): ClassificationMetrics {
  return classificationMetrics(pages.map(({ page, label }) => ({ predicted: classifier.judge(page) >= classifier.threshold ? 1 : 0, actual: label })));
}

/** The figures printed, to four places. */
export function pageReportOf(metrics: ClassificationMetrics) {
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return { precision: round(metrics.precision), recall: round(metrics.recall), f1: round(metrics.f1), accuracy: round(metrics.accuracy), n: metrics.n };
}
