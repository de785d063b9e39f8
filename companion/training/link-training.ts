/**
 * Training and measuring the link classifier from labeled links: the shared pipeline's stages
 * 4–5 (features, Naive Bayes) and 7 (metrics), as `train` and `eval` use them.
 */
import type { FeatureOptions } from '../../shared/features/types.ts';
import { linkFeatures } from '../../shared/features/link-features.ts';
import { classificationMetrics, type ClassificationMetrics } from '../../shared/metrics/classification.ts';
import { rocAuc } from '../../shared/metrics/ranking.ts';
import { exampleKey } from '../../shared/model/example-key.ts';
import { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import { seededShuffle } from '../../shared/random/seeded-random.ts';
import type { LabeledLink, NbForm } from '../../shared/model/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';

export interface Deduplicated {
  examples: LabeledLink[];
  /** Contexts seen more than once with the same label (dropped). */
  duplicates: number;
  /** Contexts seen with both labels: the first label met is kept. */
  conflicts: number;
}

/**
 * One example per link context (`exampleKey`), the first met kept: the same context twice would
 * count twice in the model, and across a train/test split it would leak the answer.
 */
export function dedupeExamples(examples: readonly LabeledLink[]): Deduplicated {
  const byKey = new Map<string, LabeledLink>();
  let duplicates = 0;
  let conflicts = 0;
  for (const example of examples) {
    const key = exampleKey(example);
    const kept = byKey.get(key);
    if (!kept) byKey.set(key, example);
    else if (kept.label === example.label) duplicates++;
    else conflicts++;
  }
  return { examples: [...byKey.values()], duplicates, conflicts };
}

/** Naive Bayes fitted on the examples' features. */
export function trainLinkModel(
  examples: readonly LabeledLink[],
  tokenizer: Tokenizer,
  features: FeatureOptions,
  form: NbForm,
): NaiveBayes {
  const model = new NaiveBayes({ form });
  model.fit(examples.map((example) => ({ features: linkFeatures(example, tokenizer, features), label: example.label })));
  return model;
}

/** What `eval` measures: the confusion-matrix figures at a threshold, and the threshold-free AUC. */
export type LinkModelMetrics = ClassificationMetrics & { auc: number | null };

/**
 * Precision, recall, F1, accuracy of `model` on `examples`, P(+) ≥ threshold predicting 1, and
 * the ROC AUC of P(+) (how well the scores rank, which is all a crawl's frontier uses).
 */
export function evaluateLinkModel(
  model: NaiveBayes,
  examples: readonly LabeledLink[],
  tokenizer: Tokenizer,
  features: FeatureOptions,
  threshold: number,
): LinkModelMetrics {
  const scored = examples.map((example) => ({ score: model.score(linkFeatures(example, tokenizer, features), 0).p, actual: example.label }));
  const metrics = classificationMetrics(scored.map(({ score, actual }) => ({ predicted: score >= threshold ? 1 : 0, actual })));
  return { ...metrics, auc: rocAuc(scored) };
}

/**
 * The figures the command line prints: DESIGN.md's five (precision, recall, f1, accuracy, n),
 * then `auc` (null when the examples hold one label only).
 */
export function reportOf(metrics: LinkModelMetrics) {
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    precision: round(metrics.precision),
    recall: round(metrics.recall),
    f1: round(metrics.f1),
    accuracy: round(metrics.accuracy),
    n: metrics.n,
    auc: metrics.auc === null ? null : round(metrics.auc),
  };
}

/** Shuffled split: the first round(n·fraction) examples train, the rest test (seed 000 §4.1: 7:3). */
export function splitExamples<T>(items: readonly T[], fraction: number, seed: number): { train: T[]; test: T[] } {
  const shuffled = seededShuffle(items, seed);
  const cut = Math.round(shuffled.length * fraction);
  return { train: shuffled.slice(0, cut), test: shuffled.slice(cut) };
}
