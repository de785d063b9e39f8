/**
 * ITFIDF term weights for the page classifier: seed 002 §3.2.
 *
 *     tf(t, d) = α·tf_title + β·tf_keywords + λ·tf_anchor + ε·tf_body,   α > β > λ > ε ≥ 1
 *     w(t, d)  = tf(t, d) · idf(t) · IG(t),   idf(t) = log(N / n_t)
 *
 * The zones are the page's title, its meta keywords and description, its link anchors and its
 * body text. The paper states the order of the zone weights, not their values; 4, 3, 2, 1 are
 * ours. IG(t) is information gain over document presence (`information-gain.ts`, the class
 * entropy form of seed 004 eq. 4-1: the paper's own IG formula is lost from our copy of it).
 *
 * The weights enter the multinomial Naive Bayes as pseudo-counts: the shared model keeps whole
 * counts (`shared/model/nb-counts.ts`, so that add and remove are exact inverses), so w is
 * counted in tenths and rounded; a weight below 0.05 counts as absent.
 */
import type { PageText } from '../../shared/features/page-features.ts';
import type { FeatureVector } from '../../shared/features/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';

/** α, β, λ, ε: title, keywords (and description), anchors, body. */
export const ZONE_WEIGHTS = { title: 4, keywords: 3, anchors: 2, body: 1 } as const;

/** Pseudo-counts per unit of weight. */
export const WEIGHT_SCALE = 10;

/** The zone-weighted term frequency tf(t, d) of one page, features named `w:<token>`. */
export function zoneWeightedTf(text: PageText, tokenizer: Tokenizer): FeatureVector {
  const tf: FeatureVector = new Map();
  const add = (zone: string | undefined, weight: number) => {
    for (const token of tokenizer.tokenize(zone ?? '')) tf.set(`w:${token}`, (tf.get(`w:${token}`) ?? 0) + weight);
  };
  add(text.title, ZONE_WEIGHTS.title);
  add(text.keywords, ZONE_WEIGHTS.keywords);
  add(text.description, ZONE_WEIGHTS.keywords);
  add(text.anchors, ZONE_WEIGHTS.anchors);
  add(text.text, ZONE_WEIGHTS.body);
  return tf;
}

/** idf(t)·IG(t) per feature: the part of w(t, d) learned from the training pages. */
export function featureWeights(features: readonly string[], documents: readonly FeatureVector[], gains: ReadonlyMap<string, number>): Map<string, number> {
  const holding = new Map<string, number>(features.map((feature) => [feature, 0]));
  for (const document of documents) {
    for (const [feature, count] of document) if (count > 0 && holding.has(feature)) holding.set(feature, holding.get(feature)! + 1);
  }
  const weights = new Map<string, number>();
  for (const [feature, n_t] of holding) {
    if (n_t > 0) weights.set(feature, Math.log(documents.length / n_t) * (gains.get(feature) ?? 0));
  }
  return weights;
}

/** w(t, d) as whole pseudo-counts, for the kept features only. */
export function itfidfCounts(tf: FeatureVector, weights: ReadonlyMap<string, number>): FeatureVector {
  const counts: FeatureVector = new Map();
  for (const [feature, frequency] of tf) {
    const weight = weights.get(feature);
    if (weight === undefined) continue;
    const count = Math.round(frequency * weight * WEIGHT_SCALE);
    if (count > 0) counts.set(feature, count);
  }
  return counts;
}
